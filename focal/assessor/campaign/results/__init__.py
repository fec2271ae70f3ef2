"""What a campaign produces: qrels and notes exports, assessor agreement, the assessment report
(spec sections 7 and 10; seed 003 §5). No Flask."""
