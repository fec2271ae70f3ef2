"""Writing results out: table cells and layouts, and files that appear whole or not at all.

`tables` formats cells and lays out rows as aligned text or tab-separated lines and writes JSON
documents; `files` writes a file through a temporary file and a rename, with the mode the user's
umask gives a new file; `figures` draws with matplotlib (Agg) and saves a figure the same way.
Standard library only (matplotlib on first use): every other package of Focal may use it.
"""
