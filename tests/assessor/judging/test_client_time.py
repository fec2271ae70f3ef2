"""`client_time` of operations and view reports: one parser, naive UTC, bad values refused."""

from __future__ import annotations

from datetime import datetime

import pytest

from focal.assessor.judging.operations import InvalidOperation, Operation, parse_client_time


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, None),
        ("2024-05-01T10:00:00Z", datetime(2024, 5, 1, 10)),
        ("2024-05-01T12:30:00+02:30", datetime(2024, 5, 1, 10)),
        ("2024-05-01T10:00:00", datetime(2024, 5, 1, 10)),  # no offset: taken as it is
        (1_714_557_600_000, datetime(2024, 5, 1, 10)),
        (1_714_557_600_000.0, datetime(2024, 5, 1, 10)),
    ],
)
def test_accepted_times_become_naive_utc(value: object, expected: datetime | None) -> None:
    assert parse_client_time(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        "noon",
        True,
        [2024],
        10**20,  # milliseconds beyond year 9999
        "0001-01-01T00:00:00+14:00",  # before year 1 in UTC
        "9999-12-31T23:59:59-14:00",  # after year 9999 in UTC
    ],
)
def test_other_values_are_an_invalid_operation(value: object) -> None:
    with pytest.raises(InvalidOperation, match="client_time"):
        parse_client_time(value)


def test_an_operation_with_an_out_of_range_time_is_refused() -> None:
    data = {"op_id": "a", "op": "finish", "client_time": "0001-01-01T00:00:00+14:00"}
    with pytest.raises(InvalidOperation) as caught:
        Operation.from_json(data)
    assert caught.value.status == 422
