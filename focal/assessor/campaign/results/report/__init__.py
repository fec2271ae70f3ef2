"""The assessment report (spec section 10): its data, its tables and their columns, the pooling
rounds, the assessors' behaviour (seed 003 §5.1.2), and the whole report built from them."""
