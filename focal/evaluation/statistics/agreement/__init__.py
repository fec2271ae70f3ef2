"""How far two assessors agree (spec section 7; seed 003 §5.2.6-5.2.7).

`assessors`: agreement on articles and characters; `elements`: agreement on element relevance;
`table`: the rows every front end prints."""
