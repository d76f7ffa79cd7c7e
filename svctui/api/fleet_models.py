"""The fleet's slim read of completed runs: only what judging a client's health reads, and what that is.

A health round validates ~30,000 runs (jobs/finished in pages of 1,000, and the own histories of the clients that
need one). `CompletedTask` validates every field: the targets, the log path, five times a domain result, ... and
keeps unknown ones; `FleetRun` reads the id, client, status and message, the times, the collection flags and each
domain result's name, success and counts, and drops the rest unread: a page of 1,000 runs in ~10 ms of CPU instead of
~22, and objects a third the size. The values it keeps are read exactly as `CompletedTask` reads them (the same
nullable times; a null where the field has a default takes the default), so a client's verdict is the same from
either (tests/integration/test_fleet_slim_read.py). The tasks screen and the CLI keep reading `CompletedTask`.

`Run` and `RunResult` are what the judging code (svctui.triage, svctui.fleet_runs) asks of a run and of a domain
result: both models fit them. They are also the slim models' field lists: `FleetRun` and `FleetResult` are built
from `CompletedTask` and `DomainResult` (their types, validators and defaults, in their order) for the names the
protocols declare, so each field is written once, in svctui.api.models, and the typed view once, here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler, create_model
from pydantic.fields import FieldInfo
from pydantic_core import CoreSchema, core_schema

from svctui.api.models import NULL_ACCEPTED, CompletedTask, DomainResult


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
    def event_id(self) -> int | None: ...  # noqa: D102
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


class _Slim(BaseModel):
    """Unknown and unneeded fields are dropped unread."""

    model_config = ConfigDict(extra="ignore", defer_build=True)


def _members(view: type) -> frozenset[str]:
    """The names a protocol (and its protocol bases) declares: what judging reads."""
    return frozenset(name for base in view.__mro__ for name, value in vars(base).items() if isinstance(value, property))


def _slim_field(info: FieldInfo, annotation: Any) -> tuple[Any, Any]:
    """A field of a full model as the slim read takes it: the same type and validators, a null taking the default
    inside the validator (`_OrDefault`) instead of `ApiModel`'s after-validator."""
    metadata = [item for item in info.metadata if item is not NULL_ACCEPTED]
    if info.is_required() or (info.default_factory is None and info.default is None):
        typed = Annotated[(annotation, *metadata)] if metadata else annotation
        return typed, ... if info.is_required() else None
    slim = Annotated[(annotation, *metadata, _OrDefault(partial(info.get_default, call_default_factory=True)))]
    if info.default_factory is not None:
        return slim, Field(default_factory=info.default_factory)
    return slim, info.default


def slim_model(model_name: str, full: type[BaseModel], view: type, **retyped: Any) -> type[_Slim]:
    """A slim model of `full`: the fields `view` names, in `full`'s order, each read as `full` reads it (`retyped`
    gives a field another type, e.g. a list of a slim model)."""
    wanted = _members(view)
    fields: dict[str, Any] = {
        name: _slim_field(info, retyped.get(name, info.annotation))
        for name, info in full.model_fields.items()
        if name in wanted
    }
    missing = wanted - fields.keys()
    if missing:  # a protocol naming what the full model lacks: fail at import, not in a verdict
        raise TypeError(f"{full.__name__} has no field {sorted(missing)} that {view.__name__} names")
    doc = f"`{full.__name__}` as judging reads it: the fields `{view.__name__}` names."
    model: type[_Slim] = create_model(model_name, __base__=_Slim, __doc__=doc, __module__=__name__, **fields)
    return model


if TYPE_CHECKING:  # the typed view of the slim models: what the protocols say (their fields are built below)

    class FleetResult(_Slim, RunResult):
        """A domain result as judging reads it (`DomainResult`'s fields that `RunResult` names)."""

    class FleetRun(_Slim, Run):
        """A completed run as judging reads it (`CompletedTask`'s fields that `Run` names)."""

else:
    FleetResult = slim_model("FleetResult", DomainResult, RunResult)
    FleetRun = slim_model("FleetRun", CompletedTask, Run, domain_results=list[FleetResult])
