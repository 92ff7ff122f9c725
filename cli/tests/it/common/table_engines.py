"""Runs docs/tables.md's snippets in one engine and prints every answer as JSON.

    python table_engines.py duckdb|spark DOCS ROOT [--extra SQL]... [--only-extra]

The snippets are taken from DOCS as written, `/data/codex-tables` replaced by ROOT: the set-up
blocks under the headings `DuckDB`, `PySpark` and `Spark SQL`, and each SQL block under
`Queries a team runs`. `duckdb` runs the DuckDB set-up, then every query; `spark` starts
Spark in local mode and runs the queries after the PySpark set-up, then again in a new
session after the Spark SQL set-up. `--extra` queries run after the documented ones (and
alone with `--only-extra`).

Prints one JSON object: `queries` (each documented query's first comment line) and, per
set-up (`duckdb`, `pyspark`, `spark sql`), the rows of each query in order, then of each extra
query: every value as JSON (dates ISO, decimals and floats rounded to 6 places), the rows
sorted, so that engines that order NULLs differently still compare equal.
"""

import datetime
import decimal
import json
import sys

PLACEHOLDER = "/data/codex-tables"


def blocks(docs, root):
    """(heading, language, text) of every fenced block, in order."""
    heading, language, lines, found = None, None, None, []
    for line in open(docs, encoding="utf-8").read().splitlines():
        if lines is None:
            if line.startswith("#"):
                heading = line.lstrip("#").strip()
            elif line.startswith("```"):
                language, lines = line[3:].strip(), []
        elif line.startswith("```"):
            found.append((heading, language, "\n".join(lines).replace(PLACEHOLDER, root)))
            lines = None
        else:
            lines.append(line)
    return found


def statements(sql):
    """The statements of a block, split at a `;` that ends a line."""
    parts, current = [], []
    for line in sql.splitlines():
        current.append(line)
        if line.rstrip().endswith(";"):
            parts.append("\n".join(current).rstrip().rstrip(";"))
            current = []
    if "".join(current).strip():
        parts.append("\n".join(current))
    return [part for part in parts if any(
        text.strip() and not text.strip().startswith("--") for text in part.splitlines())]


def value(item):
    if isinstance(item, (datetime.date, datetime.datetime)):
        return item.isoformat()
    if isinstance(item, decimal.Decimal):
        item = float(item)
    if isinstance(item, float):
        return round(item, 6)
    if item is None or isinstance(item, (bool, int, str)):
        return item
    return str(item)


def rows(found):
    return sorted(([value(item) for item in row] for row in found), key=json.dumps)


def setup(found, heading, language):
    chosen = [text for (title, lang, text) in found if title == heading and lang == language]
    if not chosen:
        sys.exit(f"docs: no {language} block under the heading {heading!r}")
    return chosen


def main():
    engine, docs, root = sys.argv[1], sys.argv[2], sys.argv[3]
    extra = [sys.argv[i + 1] for i, arg in enumerate(sys.argv) if arg == "--extra"]
    found = blocks(docs, root)
    queries = [text for (title, lang, text) in found
               if title == "Queries a team runs" and lang == "sql"]
    if not queries:
        sys.exit("docs: no query under the heading 'Queries a team runs'")
    names = [query.splitlines()[0] for query in queries]
    run = extra if "--only-extra" in sys.argv else queries + extra
    answers = {"queries": names}
    if engine == "duckdb":
        import duckdb

        connection = duckdb.connect()
        for block in setup(found, "DuckDB", "sql"):
            for statement in statements(block):
                connection.execute(statement)
        answers["duckdb"] = [rows(connection.sql(query).fetchall()) for query in run]
    elif engine == "spark":
        from pyspark.sql import SparkSession

        spark = (SparkSession.builder.master("local[2]")
                 .config("spark.ui.enabled", "false")
                 .config("spark.sql.shuffle.partitions", "2")
                 .getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        for block in setup(found, "PySpark", "python"):
            exec(block, {"spark": spark})
        answers["pyspark"] = [rows(spark.sql(query).collect()) for query in run]
        sql_session = spark.newSession()
        for block in setup(found, "Spark SQL", "sql"):
            for statement in statements(block):
                sql_session.sql(statement)
        answers["spark sql"] = [rows(sql_session.sql(query).collect()) for query in run]
        spark.stop()
    else:
        sys.exit(f"unknown engine {engine}")
    print(json.dumps(answers))


main()
