"""Field names shared as plain data by the models, the filter specs and the demo server: flags and result counts."""

from __future__ import annotations

# The collection-kind flags of events and tasks in display order, with the one-letter mark the tables show.
FLAG_MARKS: tuple[tuple[str, str], ...] = (
    ("session_collection", "S"),
    ("local_group_collection", "L"),
    ("ad_structure_collection", "A"),
    ("cert_services_collection", "C"),
    ("ca_registry_collection", "R"),
    ("dc_registry_collection", "D"),
    ("all_trusted_domains", "T"),
)
FLAG_NAMES: tuple[str, ...] = tuple(name for name, _ in FLAG_MARKS)
# The flags the server can filter on: every one but all_trusted_domains.
FILTERABLE_FLAGS: tuple[str, ...] = tuple(name for name in FLAG_NAMES if name != "all_trusted_domains")

# The per-domain counts of a domain result (spec 2.6) in display order, with their labels.
COUNT_FIELDS: tuple[tuple[str, str], ...] = (
    ("user_count", "Users"),
    ("group_count", "Groups"),
    ("computer_count", "Computers"),
    ("gpo_count", "GPOs"),
    ("ou_count", "OUs"),
    ("container_count", "Containers"),
    ("aiaca_count", "AIA CAs"),
    ("rootca_count", "Root CAs"),
    ("enterpriseca_count", "Enterprise CAs"),
    ("ntauthstore_count", "NTAuth stores"),
    ("certtemplate_count", "Cert templates"),
    ("deleted_count", "Deleted"),
)
COUNT_NAMES: tuple[str, ...] = tuple(name for name, _ in COUNT_FIELDS)
COUNT_LABELS: dict[str, str] = dict(COUNT_FIELDS)
# Their labels in the domain-results table's narrow columns.
SHORT_COUNT_LABELS: dict[str, str] = {
    "user_count": "Users",
    "group_count": "Groups",
    "computer_count": "Comps",
    "gpo_count": "GPOs",
    "ou_count": "OUs",
    "container_count": "Conts",
    "aiaca_count": "AIA",
    "rootca_count": "Root",
    "enterpriseca_count": "Ent CA",
    "ntauthstore_count": "NTAuth",
    "certtemplate_count": "Tmpl",
    "deleted_count": "Del",
}
# Which kind of collection fills which counts: a run without the kind reports 0 for them, which is why the drop rule
# compares runs of the same kinds. AD structure collection counts the directory's objects, cert services the AD CS ones.
AD_STRUCTURE_COUNTS: tuple[str, ...] = (
    "user_count",
    "group_count",
    "computer_count",
    "gpo_count",
    "ou_count",
    "container_count",
    "deleted_count",
)
CERT_SERVICES_COUNTS: tuple[str, ...] = (
    "aiaca_count",
    "rootca_count",
    "enterpriseca_count",
    "ntauthstore_count",
    "certtemplate_count",
)

# The bookkeeping times every list endpoint of events and tasks can filter and sort on.
SHARED_TIMES: tuple[str, ...] = ("created_at", "updated_at", "deleted_at")
