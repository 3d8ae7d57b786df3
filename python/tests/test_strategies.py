"""zarr_reshape.strategies: the strategies give what they claim, and
assert_matches_reference finds a planted bug and passes the reference."""

from __future__ import annotations

import itertools
import json
import math
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
jsonschema = pytest.importorskip("jsonschema")

import zarr_reshape  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from zarr_reshape import _native  # noqa: E402
from zarr_reshape import strategies as S  # noqa: E402
from zarr_reshape import vectors  # noqa: E402

from planted_codecs import FLAWS, PlantedCodec, Refusal  # noqa: E402

# Deterministic in CI: the same examples on every run, no database written.
FIXED = settings(derandomize=True, database=None, deadline=None, max_examples=60)


@pytest.fixture(scope="module")
def suite_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("suite") / "suite"
    _native.export_suite(root)
    return root


@pytest.fixture(scope="module")
def suite_cases(suite_root: Path) -> list[tuple[Any, ...]]:
    return _native.Suite(suite_root).cases()


def _classes(expect: dict[str, Any]) -> set[str]:
    if "any_of" in expect:
        return set().union(*(_classes(entry) for entry in expect["any_of"]))
    error = expect.get("error")
    return set() if error is None else {error} if isinstance(error, str) else set(error)


@FIXED
@given(S.valid_pairs(codec_objects=True))
def test_every_valid_pair_resolves_to_its_stated_shape(pair: S.ValidPair) -> None:
    assert list(zarr_reshape.resolve(pair.configuration, pair.decoded_shape)) == pair.encoded_shape
    assert math.prod(pair.encoded_shape) == math.prod(pair.decoded_shape)


def _holds(combination: str, pair: S.ValidPair) -> bool:
    """What VALID_COMBINATIONS says of ``combination``, checked on the configuration."""
    shape, decoded = pair.configuration["shape"], pair.decoded_shape
    groups = [element for element in shape if isinstance(element, list)]
    sizes = [element for element in shape if not isinstance(element, list) and element != -1]
    if combination == "auto-with-group":
        return -1 in shape and any(math.prod(decoded[d] for d in group) > 1 for group in groups)
    if combination == "auto-with-sizes":
        return -1 in shape and any(size > 1 for size in sizes)
    if combination == "multi-dim-group":
        return any(len(group) >= 2 for group in groups)
    if combination == "size-beside-group":
        kinds = ["group" if isinstance(e, list) else "auto" if e == -1 else "size" for e in shape]
        return any({a, b} == {"group", "size"} for a, b in itertools.pairwise(kinds))
    if combination == "rank-1":
        return len(decoded) == 1 or len(pair.encoded_shape) == 1
    return combination == "any"


@pytest.mark.parametrize("combination", list(S.VALID_COMBINATIONS))
def test_every_draw_of_a_combination_holds_it(combination: str) -> None:
    @settings(FIXED, max_examples=30)
    @given(S.valid_pairs(combination, max_rank=3))
    def check(pair: S.ValidPair) -> None:
        assert _holds(combination, pair), pair
        assert list(zarr_reshape.resolve(pair.configuration, pair.decoded_shape)) == pair.encoded_shape
        assert 1 <= len(pair.decoded_shape) <= 3

    check()


def test_the_default_valid_pairs_draw_every_combination() -> None:
    drawn: list[S.ValidPair] = []

    @FIXED
    @given(S.valid_pairs())
    def collect(pair: S.ValidPair) -> None:
        drawn.append(pair)

    collect()
    for combination in S.VALID_COMBINATIONS:  # each about one draw in six, and more by chance
        assert sum(_holds(combination, pair) for pair in drawn) >= len(drawn) // 10, combination


def test_must_clauses_come_from_the_registry() -> None:
    registry = json.loads(_native.clauses_json())["clauses"]
    assert set(S.MUST_CLAUSES) == {clause["id"] for clause in registry if clause["level"] == "must"}
    # Every MUST clause a resolve can break has its draws; the other two break in chains and arrays.
    assert set(S.MUST_CLAUSES) - set(S.INVALID_CLAUSES) == {"algorithm.rank", "algorithm.ravel"}
    assert set(S.INVALID_CLAUSES.values()) <= set(_native.ERROR_CLASSES)


@pytest.mark.parametrize("clause", sorted(S.INVALID_CLAUSES))
def test_every_invalid_pair_breaks_its_clause_with_its_class(clause: str, suite_cases: list[tuple[Any, ...]]) -> None:
    # The suite's own resolve vectors filed under the clause name the classes it may give.
    in_suite: set[str] = set()
    for _id, _level, operation, clauses, _interpretations, _description, wire in suite_cases:
        if operation == "resolve" and clauses[0] == clause:
            in_suite |= _classes(json.loads(wire)["expect"])
    drawn: list[S.InvalidPair] = []

    @FIXED
    @given(S.invalid_pairs(clause))
    def check(pair: S.InvalidPair) -> None:
        drawn.append(pair)
        assert pair.clause == clause and pair.error_class in in_suite
        with pytest.raises(zarr_reshape.error_class(pair.error_class)) as refused:
            zarr_reshape.resolve(pair.configuration, pair.decoded_shape)
        assert refused.value.clause == clause
        steps = zarr_reshape.explain(pair.configuration, pair.decoded_shape).steps
        # Every rule evaluated before the broken one holds.
        assert [step.verdict for step in steps if step.verdict != "defines"][:-1].count("violated") == 0

    check()
    assert len(drawn) >= 30


@FIXED
@given(S.invalid_pairs(["input-dims.prefix", "input-dims.suffix"]))
def test_misaligned_pairs_break_one_side_only(pair: S.InvalidPair) -> None:
    steps = zarr_reshape.explain(pair.configuration, pair.decoded_shape).steps
    invariant = [step.verdict for step in steps if step.clause == "shape.invariant"]
    assert invariant in ([], ["holds"])  # with the -1, the invariant holds by its value
    if pair.clause == "input-dims.suffix":  # the same element's prefix rule was evaluated first, and held
        broken = next(step for step in steps if step.verdict == "violated")
        assert any(s.clause == "input-dims.prefix" and s.at == broken.at and s.verdict == "holds" for s in steps)


@FIXED
@given(st.data())
def test_arrays_have_the_stated_data_type_and_shape(data: st.DataObject) -> None:
    data_type = data.draw(st.sampled_from(S.DATA_TYPES))
    shape = data.draw(S.decoded_shapes(max_extent=4))
    array = data.draw(S.arrays(data_type, shape))
    assert array.dtype == np.dtype(data_type) and array.dtype.name == data_type and list(array.shape) == shape


@FIXED
@given(S.configurations(), S.decoded_shapes(min_rank=4, max_rank=4))
def test_well_formed_configurations_parse(configuration: dict[str, Any], decoded_shape: list[int]) -> None:
    shape = configuration["shape"]
    assert shape.count(-1) <= 1
    try:
        zarr_reshape.resolve(configuration, decoded_shape)
    except zarr_reshape.ReshapeError as error:  # may not resolve; never a parse error
        assert error.error_class in {"element-count-mismatch", "input-dims-misaligned"}


@FIXED
@given(S.chains(valid=True))
def test_valid_chains_resolve_to_their_stated_shapes(chain: S.Chain) -> None:
    assert chain.expected is not None and chain.error_class is None
    assert zarr_reshape.resolve_chain(chain.codecs, chain.chunk_shape, chain.data_type) == chain.expected


@FIXED
@given(S.chains(valid=False))
def test_invalid_chains_are_refused_with_their_class(chain: S.Chain) -> None:
    assert chain.expected is None and chain.fault in S.CHAIN_FAULTS and chain.error_class is not None
    with pytest.raises(zarr_reshape.error_class(chain.error_class)):
        zarr_reshape.resolve_chain(chain.codecs, chain.chunk_shape, chain.data_type)


_FLAW_CLAUSE = {"prefix": "input-dims.prefix", "auto": "shape.auto.value"}


@pytest.mark.parametrize("flaw", FLAWS)
def test_assert_matches_reference_finds_a_planted_bug(
    flaw: str, suite_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The prefix bug is found in the invalid pairs of its clause, the reviewer's
    -1 bug (a plain function, as the reviewer passed it) in the valid pairs of
    the combination auto-with-group: each within the default 100 examples."""
    codec = PlantedCodec(flaw)
    started = time.perf_counter()
    with pytest.raises(S.ReferenceMismatch) as found:
        assert_default_budget(codec if flaw == "prefix" else codec.resolve)
    elapsed = time.perf_counter() - started
    assert codec.first_changed is not None and codec.first_changed <= 100
    with capsys.disabled():
        print(
            f"\nplanted {flaw} bug: first drawn on example {codec.first_changed}; "
            f"{codec.calls} calls with shrinking; {elapsed:.2f} s"
        )

    message = str(found.value)
    printed = json.loads(message[message.index("\n{") + 1 :])
    assert printed == found.value.vector and printed["operation"] in ("resolve", "encode")
    shape, decoded_shape = printed["configuration"]["shape"], printed["decoded_shape"]
    if flaw == "prefix":
        assert printed["clauses"][0] == "input-dims.prefix"
        assert printed["expect"] == {"error": "input-dims-misaligned"}
    else:  # shrunk to a -1 beside a group that takes more than one element
        assert _FLAW_CLAUSE[flaw] in printed["clauses"] and -1 in shape
        assert any(isinstance(e, list) and math.prod(decoded_shape[d] for d in e) > 1 for e in shape)
        resolved = zarr_reshape.resolve(printed["configuration"], decoded_shape)
        assert printed["expect"] == {"encoded_shape": list(resolved)}
    schema = json.loads((suite_root / "vector.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate({"format": 1, "cases": [printed]})

    # Pasted into a vector file, the case passes the reference and fails the codec.
    folder, name = printed["id"].split("/")
    (tmp_path / folder).mkdir()
    (tmp_path / folder / f"{name}.json").write_text(json.dumps({"format": 1, "cases": [printed]}))
    (case,) = vectors.cases(root=tmp_path, match=printed["id"])
    expected = printed["expect"]
    reference_answer = (
        vectors.error(expected["error"], "the reference") if "error" in expected else vectors.output(**expected)
    )
    assert case.judge(reference_answer).passed
    outcome = case.judge(vectors.Answer(found.value.answer))
    assert outcome.name == "fail", outcome


def assert_default_budget(codec: Any) -> None:
    """The default budget (100 examples), derandomized so CI sees the same run."""
    S.assert_matches_reference(codec, settings=settings(derandomize=True, database=None, deadline=None))


def test_assert_matches_reference_passes_the_reference_itself() -> None:
    assert_default_budget(zarr_reshape)  # the module: resolve, encode and decode


def test_assert_matches_reference_takes_an_adapter_function() -> None:
    calls: list[int] = []

    def resolve(configuration: Any, decoded_shape: list[int]) -> tuple[int, ...]:
        calls.append(1)
        return zarr_reshape.resolve(configuration, decoded_shape)

    S.assert_matches_reference(resolve, settings=FIXED)
    assert len(calls) >= 60


def test_a_wrong_class_and_a_wrong_array_are_disagreements(suite_root: Path) -> None:
    schema = jsonschema.Draft202012Validator(json.loads((suite_root / "vector.schema.json").read_text()))

    class WrongClass:
        def resolve(self, configuration: Any, decoded_shape: list[int]) -> tuple[int, ...]:
            try:
                return zarr_reshape.resolve(configuration, decoded_shape)
            except zarr_reshape.ReshapeError:
                raise Refusal("out-of-bounds") from None

    class Transposing:  # resolves right, but moves the elements
        resolve = staticmethod(zarr_reshape.resolve)

        def encode(self, configuration: Any, array: np.ndarray) -> np.ndarray:
            shape = zarr_reshape.resolve(configuration, list(array.shape))
            return np.ascontiguousarray(array.T).reshape(shape)

    with pytest.raises(S.ReferenceMismatch) as wrong_class:
        S.assert_matches_reference(WrongClass(), valid=False, settings=FIXED)
    assert wrong_class.value.answer["error"]["class"] == "out-of-bounds"
    with pytest.raises(S.ReferenceMismatch) as moved:
        S.assert_matches_reference(Transposing(), clauses=[], data_types=["float32", "uint64"], settings=FIXED)
    assert moved.value.vector["operation"] == "encode" and moved.value.vector["clauses"][0] == "algorithm.ravel"
    for found in (wrong_class.value, moved.value):
        schema.validate({"format": 1, "cases": [found.vector]})


def test_a_chain_resolver_that_forgets_sharding_is_found(suite_root: Path, tmp_path: Path) -> None:
    class NoInner:  # the reference's shapes, but the inner chain of a shard never resolved
        resolve = staticmethod(zarr_reshape.resolve)

        def resolve_chain(self, codecs: list[dict[str, Any]], chunk_shape: list[int], data_type: str) -> dict[str, Any]:
            shapes = zarr_reshape.resolve_chain(codecs, chunk_shape, data_type)
            return {"encoded_shapes": [list(shape) for shape in shapes.encoded_shapes]}

    with pytest.raises(S.ReferenceMismatch) as found:
        S.assert_matches_reference(NoInner(), clauses=[], valid=False, settings=FIXED)
    vector = found.value.vector
    assert vector["operation"] == "resolve-chain" and "inner" in vector["expect"]
    assert any(codec["name"] == "sharding_indexed" for codec in vector["codecs"])
    schema = json.loads((suite_root / "vector.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate({"format": 1, "cases": [vector]})
    folder, name = vector["id"].split("/")
    (tmp_path / folder).mkdir()
    (tmp_path / "clauses.json").write_text(_native.clauses_json())
    (tmp_path / folder / f"{name}.json").write_text(json.dumps({"format": 1, "cases": [vector]}))
    pasted = _native.Suite(tmp_path)
    assert pasted.judge(vector["id"], json.dumps(vector["expect"]), True)[0] == "pass"
    outcome, reason = pasted.judge(vector["id"], json.dumps(found.value.answer), False)
    assert outcome == "fail" and "inner" in reason, reason


def test_the_examples_of_the_strategies_page_run(capsys: pytest.CaptureFixture[str]) -> None:
    page = Path(__file__).resolve().parents[1] / "docs" / "strategies.md"
    if not page.is_file():
        pytest.skip("docs/strategies.md is not beside the tests (an installed package)")
    blocks = page.read_text().split("```python\n")[1:]
    assert len(blocks) >= 5
    namespace: dict[str, Any] = {}
    for block in blocks:
        exec(compile(block.split("```")[0], str(page), "exec"), namespace)  # noqa: S102 - our own page
    printed = capsys.readouterr().out
    assert '"input-dims.prefix/hypothesis-' in printed and "input-dims-misaligned" in printed
    assert "Outcome(name='fail'" in printed  # the pasted case, judged through zarr_reshape.vectors


def test_malformed_configurations_are_refused_never_crash() -> None:
    refused: list[str] = []
    drawn: list[Any] = []

    @FIXED
    @given(S.configurations(malformed=True), S.decoded_shapes())
    def check(configuration: Any, decoded_shape: list[int]) -> None:
        drawn.append(configuration)
        try:
            zarr_reshape.resolve(configuration, decoded_shape)
        except zarr_reshape.ReshapeError as error:  # anything else fails the test
            refused.append(error.error_class)

    check()
    assert "malformed-configuration" in refused and len(refused) >= len(drawn) // 4
