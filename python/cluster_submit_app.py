"""The application cluster_test.py submits with pyspark's bin/spark-submit
(the README's "On a cluster": spark-submit --py-files perfcalc.zip, and
--archives env.tar.gz#env): it does not install perfcalc; the executors
get it from what spark-submit shipped.

    spark-submit --master spark://HOST:PORT --py-files perfcalc.zip \\
        cluster_submit_app.py OUT.json STREAM_ABOVE LOG...

It writes OUT.json: where the executors imported perfcalc from
("origins"), and the rows of read_blg(spark, LOGS, stream_above=...)
("rows": file, path, local time as relog -f json writes it, value, error),
which cluster_test.py checks against native perfcalc relog -f json.
STREAM_ABOVE is read_blg's (a number of bytes, or "default")."""

from __future__ import annotations

import json
import sys


def where(_):
    import perfcalc

    yield perfcalc.__file__


def main() -> int:
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    out, stream, logs = sys.argv[1], sys.argv[2], sys.argv[3:]
    spark = SparkSession.builder.appName("perfcalc-cluster-submit").getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("ERROR")
    origins = sorted(set(sc.parallelize(range(4), 4).mapPartitions(where).collect()))

    import perfcalc.spark

    options = {} if stream == "default" else {"stream_above": int(stream)}
    df = perfcalc.spark.read_blg(spark, logs, **options)
    rows = df.select("file", "path", F.date_format("local_time", "yyyy-MM-dd'T'HH:mm:ss.SSS").alias("t"), "value", "error").collect()
    with open(out, "w") as f:
        json.dump({"origins": origins, "rows": [list(r) for r in rows]}, f)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
