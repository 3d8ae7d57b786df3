"""python/tests/written/ holds a script CI runs (check-zarrs.sh runs write_arrays.py),
not tests: pytest --doctest-modules would import it, and it needs zarr-python."""

collect_ignore = ["written"]
