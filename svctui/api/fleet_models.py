"""The fleet's slim read of completed runs: only what judging a client's health reads, and what that is.

A health round validates ~30,000 runs (jobs/finished in pages of 1,000, and the own histories of the clients that
need one). `CompletedTask` validates every field: the targets, the log path, five times a domain result, ... and
keeps unknown ones; `FleetRun` reads the id, client, status and message, the times, the collection flags and each
domain result's name, success and counts, and drops the rest unread: a page of 1,000 runs in ~10 ms of CPU instead of
~22, and objects a third the size. The values it keeps are read exactly as `CompletedTask` reads them (the same
nullable times; a null where the field has a default takes the default), so a client's verdict is the same from
either (tests/integration/test_fleet_slim_read.py). The tasks screen and the CLI keep reading `CompletedTask`.

`Run` and `RunResult` are what the judging code (svctui.triage, svctui.fleet_runs) asks of a run and of a domain
result: both models fit them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Annotated, Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema

from svctui.api.models import NullableInt, NullableTime


class RunResult(Protocol):
    """What judging reads of a domain result: its domain, whether it succeeded, its counts."""

    @property
    def domain_name(self) -> str: ...  # noqa: D102 - the fields of DomainResult
    @property
    def success(self) -> bool: ...  # noqa: D102
    @property
    def user_count(self) -> int: ...  # noqa: D102
    @property
    def group_count(self) -> int: ...  # noqa: D102
    @property
    def computer_count(self) -> int: ...  # noqa: D102
    @property
    def gpo_count(self) -> int: ...  # noqa: D102
    @property
    def ou_count(self) -> int: ...  # noqa: D102
    @property
    def container_count(self) -> int: ...  # noqa: D102
    @property
    def aiaca_count(self) -> int: ...  # noqa: D102
    @property
    def rootca_count(self) -> int: ...  # noqa: D102
    @property
    def enterpriseca_count(self) -> int: ...  # noqa: D102
    @property
    def ntauthstore_count(self) -> int: ...  # noqa: D102
    @property
    def certtemplate_count(self) -> int: ...  # noqa: D102
    @property
    def deleted_count(self) -> int: ...  # noqa: D102


class Flagged(Protocol):
    """The collection-kind flags of a run or a schedule (`models.flag_marks`)."""

    @property
    def session_collection(self) -> bool: ...  # noqa: D102 - the fields of CollectionFlags
    @property
    def local_group_collection(self) -> bool: ...  # noqa: D102
    @property
    def ad_structure_collection(self) -> bool: ...  # noqa: D102
    @property
    def cert_services_collection(self) -> bool: ...  # noqa: D102
    @property
    def ca_registry_collection(self) -> bool: ...  # noqa: D102
    @property
    def dc_registry_collection(self) -> bool: ...  # noqa: D102
    @property
    def all_trusted_domains(self) -> bool: ...  # noqa: D102


class Run(Flagged, Protocol):
    """What judging reads of a completed run (`CompletedTask` and `FleetRun` both fit)."""

    @property
    def id(self) -> int: ...  # noqa: D102 - the fields of CompletedTask
    @property
    def client_id(self) -> str: ...  # noqa: D102
    @property
    def client_name(self) -> str: ...  # noqa: D102
    @property
    def status(self) -> int: ...  # noqa: D102
    @property
    def status_message(self) -> str: ...  # noqa: D102
    @property
    def execution_time(self) -> datetime | None: ...  # noqa: D102
    @property
    def start_time(self) -> datetime | None: ...  # noqa: D102
    @property
    def end_time(self) -> datetime | None: ...  # noqa: D102
    @property
    def created_at(self) -> datetime | None: ...  # noqa: D102
    @property
    def updated_at(self) -> datetime | None: ...  # noqa: D102
    @property
    def domain_results(self) -> Sequence[RunResult]: ...  # noqa: D102


class _OrDefault:
    """Field metadata: a null takes the field's default, in the validator itself (no Python call for a value that
    is not null: `ApiModel`'s after-validator is one call an object, half the time of a slim page)."""

    def __init__(self, default: Callable[[], Any]) -> None:
        self.default = default

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        default = self.default
        null = core_schema.chain_schema(
            [core_schema.none_schema(), core_schema.no_info_plain_validator_function(lambda _null: default())]
        )
        return core_schema.union_schema([handler(source), null], mode="left_to_right")


Int = Annotated[int, _OrDefault(int)]
Str = Annotated[str, _OrDefault(str)]
Bool = Annotated[bool, _OrDefault(bool)]


class _Slim(BaseModel):
    """Unknown and unneeded fields are dropped unread."""

    model_config = ConfigDict(extra="ignore", defer_build=True)


class FleetResult(_Slim):
    """A domain result as judging reads it (`DomainResult`'s name, success and counts)."""

    domain_name: Str = ""
    success: Bool = False
    user_count: Int = 0
    group_count: Int = 0
    computer_count: Int = 0
    gpo_count: Int = 0
    ou_count: Int = 0
    container_count: Int = 0
    aiaca_count: Int = 0
    rootca_count: Int = 0
    enterpriseca_count: Int = 0
    ntauthstore_count: Int = 0
    certtemplate_count: Int = 0
    deleted_count: Int = 0


class FleetRun(_Slim):
    """A completed run as judging reads it (`CompletedTask`'s fields that `Run` names, and the event)."""

    id: int
    client_id: str
    client_name: Str = ""
    event_id: NullableInt = None
    execution_time: NullableTime = None
    start_time: NullableTime = None
    end_time: NullableTime = None
    status: Int = 0
    status_message: Str = ""
    session_collection: Bool = False
    local_group_collection: Bool = False
    ad_structure_collection: Bool = False
    cert_services_collection: Bool = False
    ca_registry_collection: Bool = False
    dc_registry_collection: Bool = False
    all_trusted_domains: Bool = False
    domain_results: Annotated[list[FleetResult], _OrDefault(list)] = Field(default_factory=list)
    created_at: NullableTime = None
    updated_at: NullableTime = None
