"""perfcalc's Parquet read by pyarrow and DuckDB (make external-test).

Usage: python check_parquet.py PERFCALC CORPUS_BLG_DIR WORK_DIR

Converts the corpus' logs with `perfcalc convert -f parquet` and, for each,
checks with pyarrow that the schema is internal/longform's and that every
row's value is the CSV cell of `perfcalc relog` for the same local time and
path (the same double; null where the CSV has " "), that every non-empty CSV
cell has its row; then queries the folder of outputs with DuckDB as the
README does and checks its counts against pyarrow's.
"""
import csv
import importlib.util
import io
import math
import os
import subprocess
import sys

import duckdb
import pyarrow.parquet as pq



def _columns():
    """The Python package's _columns.py, generated from internal/longform's
    columns (make generate), loaded from the source tree by its path."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "python", "src", "perfcalc", "_columns.py")
    spec = importlib.util.spec_from_file_location("perfcalc_columns", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: (name, Arrow type as pyarrow reads it from the Parquet, nullable) of
#: every column, in order.
SCHEMA = [(name, arrow, nullable) for name, arrow, nullable, _ in _columns().COLUMNS]


README_QUERY = """
SELECT machine, object, counter, count(value) AS samples,
       round(avg(value), 1) AS mean, round(max(value), 1) AS peak
FROM 'out/*.parquet'
WHERE counter = '% Processor Time' AND instance = '_Total'
GROUP BY ALL ORDER BY peak DESC LIMIT 5"""


def csv_cells(perfcalc, log):
    text = subprocess.run([perfcalc, "relog", log], check=True, capture_output=True).stdout.decode("utf-8")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    head = rows[0]
    cells = {}
    for rec in rows[1:]:
        for j in range(1, len(rec)):
            if rec[j] != "":
                key = (rec[0], head[j])
                assert key not in cells, f"CSV cell {key} twice"
                cells[key] = rec[j]
    return cells


def check_file(perfcalc, log, parquet):
    table = pq.read_table(parquet)
    have = [(f.name, str(f.type), f.nullable) for f in table.schema]
    assert have == SCHEMA, f"{parquet}: schema\n{have}\nwant\n{SCHEMA}"
    cells = csv_cells(perfcalc, log)
    cols = table.to_pydict()
    n = table.num_rows
    for i in range(n):
        lt = cols["local_time"][i]
        key = (lt.strftime("%m/%d/%Y %H:%M:%S.") + "%03d" % (lt.microsecond // 1000), cols["path"][i])
        want = cells.get(key)
        assert want is not None, f"{parquet} row {i}: no CSV cell {key}"
        v = cols["value"][i]
        if want == " ":
            assert v is None, f"{parquet} row {i} {key}: value {v!r}, CSV has no value"
            assert cols["status"][i] != "Valid"
        else:
            w = float(want)
            assert v is not None and v == w and math.copysign(1, v) == math.copysign(1, w), \
                f"{parquet} row {i} {key}: value {v!r}, CSV {want}"
            assert cols["status"][i] == "Valid"
    assert n == len(cells), f"{parquet}: {n} rows for {len(cells)} non-empty CSV cells"
    return n


def main():
    perfcalc, corpus, work = sys.argv[1:4]
    out = os.path.join(work, "out")
    logs = sorted(os.path.join(corpus, f) for f in os.listdir(corpus) if f.endswith(".blg"))
    r = subprocess.run([perfcalc, "convert", *logs, "-o", out, "-f", "parquet", "--force"], capture_output=True, text=True)
    print(r.stdout, end="")
    rows = {}
    for log in logs:
        parquet = os.path.join(out, os.path.splitext(os.path.basename(log))[0] + ".parquet")
        if not os.path.exists(parquet):
            continue
        rows[os.path.basename(parquet)] = check_file(perfcalc, log, parquet)
        print(f"pyarrow: {os.path.basename(parquet)}: {rows[os.path.basename(parquet)]} rows equal relog's CSV")
    assert len(rows) >= 3, f"only {len(rows)} Parquet outputs"
    con = duckdb.connect()
    per_file = dict(con.execute(
        f"SELECT parse_filename(filename), count(*) FROM read_parquet('{out}/*.parquet', filename=true) GROUP BY ALL").fetchall())
    assert per_file == rows, f"DuckDB counts {per_file}, pyarrow {rows}"
    valid = con.execute(f"SELECT count(*) FROM '{out}/*.parquet' WHERE status = 'Valid' AND value IS NOT NULL").fetchall()[0][0]
    nulls = con.execute(f"SELECT count(*) FROM '{out}/*.parquet' WHERE value IS NULL").fetchall()[0][0]
    assert valid + nulls == sum(rows.values())
    print(f"duckdb: {len(per_file)} files, {sum(rows.values())} rows ({valid} valid, {nulls} null) as pyarrow reads them")
    # The README's query, run where the outputs are.
    os.chdir(work)
    duckdb.sql(README_QUERY).show()
    print("external-test: pyarrow and DuckDB: 0 failed")


if __name__ == "__main__":
    main()
