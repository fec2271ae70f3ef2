"""Setting a campaign up: importing a collection, topics, runs and old qrels (from the command line,
uploads or server paths), display profiles, article titles, and the demo campaign. No Flask."""
