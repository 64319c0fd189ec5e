"""Appended after ``rows_record.py`` (``--form gs=PATH+benchmarks/rows_record.py+benchmarks/
rows_record_gs.py``): its passes' gather and scatter alone, no pass (the bits differ: a timing
form only)."""
RUN_PASS = False
