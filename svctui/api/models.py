"""pydantic models of the v2 API: pages, events, completed tasks, clients, domain results, refs, errors, tags,
selectors.

Nullable fields accept the four shapes the real server emits: a plain value, null, `{"Time": ..., "Valid": ...}`
and `{"time"|"int32"|...: ..., "valid": ...}`. `0001-01-01T00:00:00Z` means unset. Unknown fields are kept.
"""

from __future__ import annotations

import operator
from datetime import datetime
from enum import IntEnum
from functools import cache
from typing import Annotated, Any, ClassVar, Generic, Self, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, GetCoreSchemaHandler, TypeAdapter, model_validator
from pydantic_core import CoreSchema, core_schema

from svctui.api.fields import FLAG_MARKS as FLAG_MARKS

UNSET_TIME_PREFIX = "0001-01-01"


def unwrap_nullable(value: Any) -> Any:
    """Turn a `{X, valid}` / `{X, Valid}` wrapper into its value, or None when not valid."""
    if isinstance(value, dict):
        lowered = {str(key).lower(): inner for key, inner in value.items()}
        if "valid" in lowered:
            if not lowered["valid"]:
                return None
            payload = [inner for key, inner in lowered.items() if key != "valid"]
            return payload[0] if payload else None
    return value


def unwrap_time(value: Any) -> Any:
    """Unwrap a nullable time and map the zero time `0001-01-01T00:00:00Z` to None."""
    if isinstance(value, str):  # the usual shape, first: a page of tasks calls this ~10 times a task
        return None if not value or value.startswith(UNSET_TIME_PREFIX) else value
    value = unwrap_nullable(value)
    if isinstance(value, str) and (value.startswith(UNSET_TIME_PREFIX) or not value):
        return None
    if isinstance(value, datetime) and value.year == 1:
        return None
    return value


NullableInt = Annotated[int | None, BeforeValidator(unwrap_nullable)]
NullableStr = Annotated[str | None, BeforeValidator(unwrap_nullable)]
NullableBool = Annotated[bool | None, BeforeValidator(unwrap_nullable)]
NullableTime = Annotated[datetime | None, BeforeValidator(unwrap_time)]


class TaskStatus(IntEnum):
    """Completed-task status codes with their labels."""

    INVALID = -1
    READY = 0
    RUNNING = 1
    COMPLETE = 2
    CANCELED = 3
    TIMED_OUT = 4
    FAILED = 5
    INGESTING = 6
    ANALYZING = 7
    PARTIALLY_COMPLETE = 8

    @property
    def label(self) -> str:
        """Human label, e.g. `Partially complete`."""
        return self.name.replace("_", " ").capitalize()

    @property
    def finished(self) -> bool:
        """True for the finished states 2..8."""
        return self.value >= 2


# "Not OK": the finished runs that did not collect everything (one definition for the quick filter, the health
# verdicts and the demo's fleet; canceled, running and the analysis states are not failures).
NOT_OK_STATUSES = frozenset({TaskStatus.TIMED_OUT, TaskStatus.FAILED, TaskStatus.PARTIALLY_COMPLETE})
# Not finished yet (the real server's jobs/finished leaves them out; completed-jobs lists them too).
IN_PROGRESS_STATUSES = frozenset({TaskStatus.READY, TaskStatus.RUNNING})


def status_label(code: int) -> str:
    """Label of a status code; unknown codes are shown as `Unknown (N)`."""
    try:
        return TaskStatus(code).label
    except ValueError:
        return f"Unknown ({code})"


class ApiModel(BaseModel):
    """Base: keep unknown fields; a null where the model has a non-null default takes that default."""

    model_config = ConfigDict(extra="allow", populate_by_name=True, defer_build=True)
    csv_last: ClassVar[bool] = False
    """True on a base of bookkeeping fields (times, stamps, flags): CSV puts them after the record's own fields."""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        """Let the fields that have a default other than None also accept null (see `_null_takes_default`)."""
        super().__pydantic_init_subclass__(**kwargs)
        for name in _null_defaulted(cls):
            metadata = cls.model_fields[name].metadata
            if NULL_ACCEPTED not in metadata:
                metadata.append(NULL_ACCEPTED)

    @model_validator(mode="after")
    def _null_takes_default(self) -> Self:
        """A `null` where the field has a default other than None (`""`, `0`, `False`, `[]`) takes that default.

        An after-validator, one call an object: a before-validator would make pydantic build every object of a page
        as a Python dict first, several times slower."""
        values = self.__dict__
        for name in _null_defaulted(type(self)):
            if values[name] is None:
                values[name] = type(self).model_fields[name].get_default(call_default_factory=True)
        return self


class _NullAccepted:
    """Field metadata: the field's schema accepts null as well (the model's after-validator puts the default)."""

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.nullable_schema(handler(source))


NULL_ACCEPTED = _NullAccepted()


@cache
def _null_defaulted(model: type[BaseModel]) -> tuple[str, ...]:
    """The fields of `model` with a default other than None (a `null` there takes it): computed once per model."""
    return tuple(
        name
        for name, info in model.model_fields.items()
        if not info.is_required() and (info.default_factory is not None or info.default is not None)
    )


class OURef(ApiModel):
    """An organizational unit targeted by an event or task."""

    objectid: str
    name: str = ""
    exists: bool = True
    distinguishedname: str = ""
    type: str = ""


class DomainRef(ApiModel):
    """A domain targeted by an event or task."""

    objectid: str
    name: str = ""
    exists: bool = True
    type: str = ""


def _ref(value: Any) -> Any:
    """A bare objectid string (hydration off) becomes a ref with only its objectid."""
    if isinstance(value, str):
        return {"objectid": value, "exists": True}
    return value


HydratedOU = Annotated[OURef, BeforeValidator(_ref)]
HydratedDomain = Annotated[DomainRef, BeforeValidator(_ref)]


class CollectionFlags(ApiModel):
    """The collection-kind flags shared by events and tasks."""

    csv_last: ClassVar[bool] = True

    session_collection: bool = False
    local_group_collection: bool = False
    ad_structure_collection: bool = False
    cert_services_collection: bool = False
    ca_registry_collection: bool = False
    dc_registry_collection: bool = False
    all_trusted_domains: bool = False
    """Follow the domain's trusts and collect every trusted domain too; not a collection kind: no filter on it."""


def flag_marks(item: object) -> str:
    """Compact marks for the enabled collection kinds in a fixed order, `·` where off: `SLA·C··` (of any model with
    the flag fields: an event, a run, a fleet run)."""
    return "".join([mark if on else "·" for on, mark in zip(_FLAGS_OF(item), _MARKS, strict=True)])


# one C-level call for the seven flags (flag_marks runs for every run of a fleet, ~30,000 a health round)
_FLAGS_OF = operator.attrgetter(*(name for name, _ in FLAG_MARKS))
_MARKS = tuple(mark for _, mark in FLAG_MARKS)


class Event(CollectionFlags):
    """A collection schedule (spec 2.3)."""

    id: int
    client_id: str
    rrule: str = ""
    ous: list[HydratedOU] = Field(default_factory=list)
    domains: list[HydratedDomain] = Field(default_factory=list)
    next_scheduled_at: NullableTime = None
    # The times inline rather than from Timestamps: the CSV columns keep client_name after them.
    created_at: NullableTime = None
    updated_at: NullableTime = None
    deleted_at: NullableTime = None
    client_name: NullableStr = None


class Timestamps(ApiModel):
    """The bookkeeping times the server keeps on its records (the `SHARED_TIMES` every list can filter on)."""

    csv_last: ClassVar[bool] = True

    created_at: NullableTime = None
    updated_at: NullableTime = None
    deleted_at: NullableTime = None


class DomainResult(Timestamps):
    """Per-domain outcome of a completed task (spec 2.6)."""

    id: int
    job_id: int = 0
    """The completed task (`CompletedTask.id`) this result belongs to."""
    domain_name: str = ""
    success: bool = False
    message: str = ""
    user_count: int = 0
    """The first of `fields.AD_STRUCTURE_COUNTS`: 0 in a run without AD structure collection."""
    group_count: int = 0
    computer_count: int = 0
    gpo_count: int = 0
    ou_count: int = 0
    container_count: int = 0
    aiaca_count: int = 0
    """The first of `fields.CERT_SERVICES_COUNTS` (AD CS): 0 in a run without cert services collection."""
    rootca_count: int = 0
    enterpriseca_count: int = 0
    ntauthstore_count: int = 0
    certtemplate_count: int = 0
    deleted_count: int = 0


class CompletedTask(CollectionFlags, Timestamps):
    """A completed collection task of a client (spec 2.2)."""

    id: int
    client_id: str
    client_name: str = ""
    event_id: NullableInt = None
    """The schedule that started the run; None for a run started by hand."""
    execution_time: NullableTime = None
    start_time: NullableTime = None
    end_time: NullableTime = None
    status: int = 0
    """A `TaskStatus` code (-1 to 8); 2 to 8 are finished."""
    status_message: str = ""
    domain_controller: str = ""
    log_path: NullableStr = None
    event_title: NullableStr = None
    last_ingest: NullableTime = None
    ous: list[HydratedOU] = Field(default_factory=list)
    domains: list[HydratedDomain] = Field(default_factory=list)
    domain_results: list[DomainResult] = Field(default_factory=list)

    @property
    def status_label(self) -> str:
        """Label of the status code."""
        return status_label(self.status)


class ClientSchedule(CollectionFlags):
    """A schedule listed inside a collection client (`events` of `GET /api/v2/clients`): an event, loosely."""

    id: int
    client_id: str = ""
    rrule: str = ""
    ous: list[HydratedOU] = Field(default_factory=list)
    domains: list[HydratedDomain] = Field(default_factory=list)
    next_scheduled_at: NullableTime = None


class CollectionClient(Timestamps):
    """A collection client (`GET /api/v2/clients`, enterprise only): identity, version, check-in, current job.

    The client's `token` object is kept out of dumps, reprs and raw views: it is never shown or logged.
    """

    id: str
    name: str = ""
    hostname: str = ""
    ip_address: str = ""
    configured_user: str = ""
    version: str = ""
    type: str = ""
    last_checkin: NullableTime = None
    current_job_id: NullableInt = None
    current_task_id: NullableInt = None
    current_job: dict[str, Any] | None = None
    current_task: dict[str, Any] | None = None
    completed_job_count: int = 0
    completed_task_count: int = 0
    domain_controller: NullableStr = None
    user_sid: NullableStr = None
    provided_identifier: NullableStr = None
    """What the collector says it is (newest servers; null or absent elsewhere)."""
    events: list[ClientSchedule] = Field(default_factory=list)
    token: Any = Field(default=None, exclude=True, repr=False)


class ClientResponse(ApiModel):
    """`GET /api/v2/clients/{id}`: `{"data": client}`."""

    data: CollectionClient


class ErrorDetail(ApiModel):
    """One entry of the error envelope."""

    context: str = ""
    message: str = ""


class ErrorEnvelope(ApiModel):
    """The error body of spec 2.7."""

    http_status: int
    timestamp: str = ""
    request_id: str = ""
    errors: list[ErrorDetail] = Field(default_factory=list)


class Seed(ApiModel):
    """A selector seed: type 1 object id, 2 Cypher."""

    type: int
    value: str


class Named(ApiModel):
    """The name and description of a tag or a selector."""

    name: str = ""
    description: str = ""


class Stamped(ApiModel):
    """Who created and last updated a tag or selector, and when (the API's `created_*` / `updated_*`)."""

    csv_last: ClassVar[bool] = True

    created_at: NullableTime = None
    created_by: NullableStr = None
    updated_at: NullableTime = None
    updated_by: NullableStr = None


class TagKey(ApiModel):
    """What a tag is: its id, type and kind (the first fields of the server's tag object)."""

    id: int
    type: int = 0
    """1 tier, 2 label, 3 owned (`type_label`)."""
    kind_id: int = 0


class TagDeletion(ApiModel):
    """When and by whom a tag was deleted (the server keeps a deleted tag's row)."""

    deleted_at: NullableTime = None
    deleted_by: NullableStr = None


class TagCounts(ApiModel):
    """A tag's counts from `GET /api/v2/asset-group-tags?counts=true`: each None when the server did not send it."""

    members: NullableInt = None
    selectors: NullableInt = None
    custom_selectors: NullableInt = None
    default_selectors: NullableInt = None
    disabled_selectors: NullableInt = None

    @property
    def selector_total(self) -> int | None:
        """How many selectors the tag has: `selectors`, else custom plus default, else None (not said)."""
        if self.selectors is not None:
            return self.selectors
        if self.custom_selectors is not None and self.default_selectors is not None:
            return self.custom_selectors + self.default_selectors
        return None


class AssetGroupTag(TagDeletion, Stamped, Named, TagKey):
    """An asset group tag (tier, label or owned).

    Its fields come in the server's order (REAL-SERVER.md), the bases' fields first, the last-named base first:
    id, type, kind_id, name, description, the stamps, the deletion, then its own. CSV puts the stamps last
    (`commands.output.csv_columns`)."""

    position: NullableInt = None
    """A tier's place in the tier order (the tags pane shows it for tiers only)."""
    require_certify: NullableBool = None
    analysis_enabled: NullableBool = None
    glyph: NullableStr = None
    counts: TagCounts | None = None
    """With `?counts=true`: its selector and member counts (newest servers give five, older ones two; else None)."""

    @property
    def type_label(self) -> str:
        """`tier`, `label`, `owned` or the raw number."""
        return {1: "tier", 2: "label", 3: "owned"}.get(self.type, str(self.type))


class SelectorKey(ApiModel):
    """What a selector is: its id and its tag's."""

    id: int
    asset_group_tag_id: int


class Selector(Stamped, Named, SelectorKey):
    """An asset group tag selector, its fields in the server's order (as `AssetGroupTag`'s)."""

    disabled_at: NullableTime = None
    disabled_by: NullableStr = None
    auto_certify: NullableInt = None
    """0 off, 1 all members, 2 seeds only (the values `POST .../selectors` takes)."""
    is_default: bool = False
    """The tag's default selector: DELETE refuses it with 403 `cannot delete a default selector`."""
    allow_disable: bool = True
    seeds: list[Seed] = Field(default_factory=list)
    rule_key: NullableStr = None
    """Set (with `extension_id`) on a selector an extension owns: its next sync re-creates it when deleted."""
    extension_id: NullableInt = None

    @property
    def extension_owned(self) -> bool:
        """True for a selector an installed extension owns (rule_key or extension_id set)."""
        return self.rule_key is not None or self.extension_id is not None


T = TypeVar("T")


class Paged(ApiModel):
    """The paging fields of a paginated envelope (spec 2.1); `count` is required: a `{}` is not an answer."""

    count: int
    skip: int = 0
    limit: int = 0


class Page(Paged, Generic[T]):
    """The paginated envelope with its items in `data` (required)."""

    data: list[T]


class SelectorsData(ApiModel):
    """`data` of the selector listing."""

    selectors: list[Selector]


class SelectorPage(Paged):
    """The selector listing: paginated, with data nested under `selectors` (required)."""

    data: SelectorsData


class TagsData(ApiModel):
    """`data` of the tag listing."""

    tags: list[AssetGroupTag]


class DataEnvelope(ApiModel):
    """Any answer of the API with a `data` object (its contents unchecked): what proves an endpoint answered."""

    data: dict[str, Any]


class TagList(ApiModel):
    """The tag listing (no paging; data.tags required)."""

    data: TagsData


class SelectorData(ApiModel):
    """`data` of the single-selector response."""

    selector: Selector


class SelectorResponse(ApiModel):
    """The single-selector response."""

    data: SelectorData


class SelectorCreated(ApiModel):
    """The answer to creating a selector: 201 `{"data": selector}`."""

    data: Selector


class MemberCounts(ApiModel):
    """How many objects a selector tags: the total and the count per object kind."""

    total_count: int
    counts: dict[str, int] = Field(default_factory=dict)


class MemberCountsResponse(ApiModel):
    """`GET …/selectors/{id}/members/counts`."""

    data: MemberCounts


M = TypeVar("M")


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def adapter(model: Any) -> TypeAdapter[Any]:
    """A cached TypeAdapter for `model` (e.g. `Page[Event]`) with its validator built, once per process."""
    built = _ADAPTERS.get(model)
    if built is None:
        built = TypeAdapter(model)
        built.rebuild()  # the models defer their build, so the adapter would build on its first validation
        built = _ADAPTERS.setdefault(model, built)
    return built


def adapter_built(model: Any) -> bool:
    """True once `adapter(model)` has been built (~45 ms for a page of tasks, whose models had not been built)."""
    return model in _ADAPTERS


def parse_json(model: type[M], content: bytes) -> M:
    """Validate response bytes into `model` with a cached adapter."""
    result: M = adapter(model).validate_json(content)
    return result
