"""The long schema generated from internal/longform's columns (_columns.py):
the package's Arrow schema, the native Parquet output read back, and the
Spark schema and conversion (without Spark: the Arrow side of spark.py)."""

from __future__ import annotations

import decimal

import pyarrow as pa
import pyarrow.parquet as pq

import perfcalc
import perfcalc.spark
from perfcalc import _columns

from conftest import need_corpus, run_native


def test_schema_is_the_generated_columns():
    assert perfcalc.SCHEMA.names == [c[0] for c in _columns.COLUMNS]
    for f, (name, arrow, nullable, dictionary) in zip(perfcalc.SCHEMA, _columns.COLUMNS):
        assert f.nullable == nullable, name
        if dictionary:
            assert pa.types.is_dictionary(f.type) and str(f.type.value_type) == arrow, name
        else:
            assert str(f.type) == arrow, name


def test_native_parquet_has_the_generated_columns(native, tmp_path):
    log = need_corpus() / "blg" / "Tx_BasicPerfCounters.blg"
    out = tmp_path / "tx.parquet"
    run_native(native, "relog", log, "-f", "parquet", "-o", out)
    schema = pq.read_schema(out)
    assert [(f.name, str(f.type), f.nullable) for f in schema] == [c[:3] for c in _columns.COLUMNS]
    # Dictionary-encoded columns are read back as dictionaries when asked.
    dict_cols = [c[0] for c in _columns.COLUMNS if c[3]]
    t = pq.read_table(out, read_dictionary=dict_cols)
    assert all(pa.types.is_dictionary(t.schema.field(n).type) for n in dict_cols)


def test_spark_schema_without_spark():
    names = [f.name for f in perfcalc.spark._ARROW]
    assert names == ["file", *perfcalc.SCHEMA.names, "error"]
    ddl = [part.strip().split(" ")[0] for part in perfcalc.spark._SPARK_DDL.split(", ")]
    assert ddl == names
    types = dict(part.strip().split(" ", 1) for part in perfcalc.spark._SPARK_DDL.split(", "))
    assert types["raw_first"] == "decimal(20,0)" and types["raw_status"] == "bigint" and types["local_time"] == "timestamp_ntz"


def test_to_spark_arrow_keeps_every_value():
    log = need_corpus() / "blg" / "Tx_BasicPerfCounters.blg"
    table = perfcalc.read_blg(log)
    s = perfcalc.spark.to_spark_arrow(table, "file:/logs/tx.blg")
    assert s.schema.equals(perfcalc.spark._ARROW)
    assert s.num_rows == table.num_rows
    assert set(s["file"].to_pylist()) == {"file:/logs/tx.blg"} and s["error"].null_count == s.num_rows
    for name in perfcalc.SCHEMA.names:
        have, want = s[name].to_pylist(), table[name].to_pylist()
        if name in ("raw_first", "raw_second"):
            want = [None if v is None else decimal.Decimal(v) for v in want]
        assert have == want, name
    e = perfcalc.spark._error_row("file:/x.blg", "damaged")
    assert e.schema.equals(perfcalc.spark._ARROW) and e.to_pylist()[0]["error"] == "damaged"
    assert e.to_pylist()[0]["time"] is None
