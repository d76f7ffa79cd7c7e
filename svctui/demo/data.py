"""Deterministic demo data: clients (and their host details), forests (domains with SIDs, OUs with GUIDs and DNs)
and scheduled events.

`svctui.demo.generate` calls these first, then `data_tasks` (tasks and per-domain results) and `data_tags` (tags
and selectors); this module imports neither.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from svctui.demo import names
from svctui.demo.timefmt import to_micros
from svctui.schedule import parse_schedule

COUNT_SCALE = {  # field -> (low, high) of a domain's base count
    "user_count": (400, 40_000),
    "group_count": (150, 9_000),
    "computer_count": (200, 25_000),
    "gpo_count": (20, 450),
    "ou_count": (30, 700),
    "container_count": (120, 2_500),
    "aiaca_count": (0, 3),
    "rootca_count": (0, 2),
    "enterpriseca_count": (0, 3),
    "ntauthstore_count": (0, 1),
    "certtemplate_count": (12, 70),
    "deleted_count": (0, 400),
}
FREQUENCY_SHARE = {"HOURLY": 0.08, "DAILY": 0.6, "WEEKLY": 0.32}
# New schedules must have a DTSTART on the real server; RRULE-only rules are a few legacy rows.
LEGACY_RULE_SHARE = 0.06


@dataclass
class Domain:
    """A generated domain: identity, owning client, base counts and slow trend per count."""

    objectid: str
    name: str
    client_id: str
    base: dict[str, int]
    trend: dict[str, float]
    ous: list[str] = field(default_factory=list)


@dataclass
class Client:
    """A generated collector client and its forest."""

    id: str
    name: str
    domains: list[Domain] = field(default_factory=list)
    collector: str = "sharphound"  # the client's `type`: sharphound, azurehound or openhound


@dataclass
class Event:
    """A generated schedule: flags, targets and the slots (epoch seconds) it would have run at."""

    id: int
    client: Client
    title: str
    frequency: str
    flags: tuple[int, ...]
    domains: list[Domain]
    ou_ids: list[str]
    first_run: datetime
    created_at: datetime


def new_uuid(rng: random.Random) -> str:
    """A version-4 UUID drawn from `rng` (deterministic)."""
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def make_clients(rng: random.Random, count: int) -> list[Client]:
    """Clients with collector names and one forest each (root plus 0-3 child domains)."""
    clients: list[Client] = []
    for index in range(count):
        base_name = names.CLIENT_NAMES[index % len(names.CLIENT_NAMES)]
        name = base_name if index < len(names.CLIENT_NAMES) else f"{base_name}-{index // len(names.CLIENT_NAMES) + 1}"
        client = Client(id=new_uuid(rng), name=name)
        root = names.FOREST_ROOTS[index % len(names.FOREST_ROOTS)]
        if index >= len(names.FOREST_ROOTS):
            stem, _, tld = root.partition(".")
            root = f"{stem}{index // len(names.FOREST_ROOTS) + 1}.{tld}"
        children = rng.sample(names.CHILD_PREFIXES, rng.randint(0, 3))
        for domain_name in [root, *(f"{child}.{root}" for child in children)]:
            client.domains.append(make_domain(rng, domain_name, client.id))
        clients.append(client)
    return clients


def make_domain(rng: random.Random, name: str, client_id: str) -> Domain:
    """A domain with a SID, base counts and a slow trend (-10 % .. +15 % over the whole history)."""
    sid = f"S-1-5-21-{rng.randint(10**9, 4 * 10**9)}-{rng.randint(10**9, 4 * 10**9)}-{rng.randint(10**8, 4 * 10**9)}"
    size = rng.uniform(0.05, 1.0)
    base: dict[str, int] = {}
    for name_of_count, (low, high) in COUNT_SCALE.items():
        if high <= 5:
            base[name_of_count] = rng.randint(low, high)
        else:
            base[name_of_count] = int(low + (high - low) * size * rng.uniform(0.7, 1.3))
    trend = {count: rng.uniform(-0.10, 0.15) for count in COUNT_SCALE}
    return Domain(objectid=sid, name=name, client_id=client_id, base=base, trend=trend)


def ou_rows(rng: random.Random, clients: list[Client]) -> list[tuple[str, str, str, int, str, str]]:
    """3-8 OUs per domain (GUID objectids, BloodHound-style names and real-looking DNs), some no longer present."""
    rows: list[tuple[str, str, str, int, str, str]] = []
    for client in clients:
        for domain in client.domains:
            dc_part = ",".join(f"DC={label.lower()}" for label in domain.name.split("."))
            for ou_name in rng.sample(names.OU_NAMES, rng.randint(3, 8)):
                parent = rng.choice(names.OU_PARENTS)
                dn = f"OU={ou_name},{f'OU={parent},' if parent else ''}{dc_part}"
                objectid = new_uuid(rng).upper()
                present = 0 if rng.random() < 0.1 else 1
                rows.append((objectid, domain.objectid, f"{ou_name.upper()}@{domain.name}", present, dn, "OU"))
                domain.ous.append(objectid)
    return rows


def make_events(rng: random.Random, clients: list[Client], count: int, start: datetime) -> list[Event]:
    """Schedules spread over the clients: hourly, daily and weekly plans scoped to domains, OUs or all trusts."""
    plans_by_frequency: dict[str, list[tuple[str, str, tuple[int, ...]]]] = {}
    for plan in names.EVENT_PLANS:
        plans_by_frequency.setdefault(plan[1], []).append(plan)
    frequencies = list(FREQUENCY_SHARE)
    weights = [FREQUENCY_SHARE[name] for name in frequencies]
    events: list[Event] = []
    for event_id in range(1, count + 1):
        client = clients[(event_id - 1) % len(clients)]
        frequency = rng.choices(frequencies, weights)[0]
        title_pattern, _, flags = rng.choice(plans_by_frequency[frequency])
        scope = rng.random()
        domains: list[Domain] = []
        ou_ids: list[str] = []
        all_trusted = 0
        if scope < 0.1:
            all_trusted = 1
            domains = list(client.domains)
            label = "all trusted domains"
        elif scope < 0.3:
            domain = rng.choice(client.domains)
            ou_ids = rng.sample(domain.ous, min(len(domain.ous), rng.randint(1, 3)))
            domains = [domain]
            label = f"{len(ou_ids)} OU{'s' if len(ou_ids) > 1 else ''} in {domain.name}"
        else:
            domains = rng.sample(client.domains, rng.randint(1, min(3, len(client.domains))))
            label = domains[0].name if len(domains) == 1 else f"{domains[0].name} +{len(domains) - 1}"
        created = start - timedelta(days=rng.randint(1, 90), minutes=rng.randint(0, 1439))
        created = created.replace(second=0, microsecond=0)
        first_run = created + timedelta(minutes=rng.randint(1, 600))
        first_run = first_run.replace(second=0)
        events.append(
            Event(
                id=event_id,
                client=client,
                title=title_pattern.format(scope=label),
                frequency=frequency,
                flags=(*flags, all_trusted),
                domains=domains,
                ou_ids=ou_ids,
                first_run=first_run,
                created_at=created,
            )
        )
    return events


def event_rrule(rng: random.Random, event: Event) -> tuple[str, datetime]:
    """The rrule text (DTSTART + RRULE, or RRULE only for a few legacy rows) and the dtstart it implies."""
    weekday = names.WEEKDAYS[event.first_run.weekday()]
    rule = f"RRULE:FREQ={event.frequency};INTERVAL=1"
    if event.frequency == "WEEKLY":
        rule += f";BYDAY={weekday}"
    if rng.random() < LEGACY_RULE_SHARE:
        # An older, RRULE-only schedule: the rule counts from the event's creation time.
        event.first_run = event.created_at
        return rule.replace(
            f";BYDAY={weekday}", f";BYDAY={names.WEEKDAYS[event.created_at.weekday()]}"
        ), event.created_at
    return f"DTSTART:{event.first_run.strftime('%Y%m%dT%H%M%SZ')}\n{rule}", event.first_run


def next_run(rrule_text: str, created_at: datetime, after: datetime) -> datetime | None:
    """The rule's first run after `after`, as the real server keeps it in next_scheduled_at (None when ended).

    A rule with a DTSTART runs as the dashboard reads it (`svctui.schedule`); a legacy RRULE-only rule counts from
    the event's creation time.
    """
    text = rrule_text.strip()
    if not parse_schedule(text).has_start:
        text = f"DTSTART:{created_at.astimezone(UTC).strftime('%Y%m%dT%H%M%SZ')}\n{text}"
    return parse_schedule(text).next_run(after)


def event_rows(rng: random.Random, events: list[Event], anchor: datetime) -> list[tuple[object, ...]]:
    """Rows of the events table, with next_scheduled_at the rule's next run after the anchor."""
    rows: list[tuple[object, ...]] = []
    for event in events:
        rrule_text, _ = event_rrule(rng, event)
        following = next_run(rrule_text, event.created_at, anchor)
        next_at = to_micros(following) if following is not None else None
        updated = event.created_at + timedelta(days=rng.randint(0, 30), minutes=rng.randint(0, 600))
        rows.append(
            (
                event.id,
                event.client.id,
                event.title,
                rrule_text,
                *event.flags,
                next_at,
                to_micros(event.created_at),
                to_micros(min(updated, anchor)),
                None,
            )
        )
    return rows


# Collector versions per client type (as many of each: a client's draw from the stream is the same whatever its type)
VERSIONS = {"sharphound": ("v2.5.13", "v2.6.1", "v2.6.3"), "azurehound": ("v2.2.1", "v2.3.0", "v2.4.1")}


def client_rows(rng: random.Random, clients: list[Client], anchor: datetime) -> list[tuple[object, ...]]:
    """One `clients` row per client: host, address, account, collector type and version, created/updated times.

    The check-in, current job and completed-job count are filled from the tasks afterwards (`generate`).
    `rng` is the clients' own stream, so these details leave the rest of the data set unchanged.
    """
    rows: list[tuple[object, ...]] = []
    for index, client in enumerate(clients):
        root = client.domains[0]
        netbios = root.name.split(".")[0]
        host = f"{client.name.lower()}.{root.name.lower()}"
        created = anchor - timedelta(days=rng.randint(400, 900), minutes=rng.randint(0, 1440))
        rows.append(
            (
                client.id,
                client.name,
                host,
                f"10.{rng.randint(0, 40)}.{rng.randint(0, 255)}.{rng.randint(2, 250)}",
                f"{netbios}\\svc-{client.collector}",
                rng.choice(VERSIONS[client.collector]),
                client.collector,
                None,
                None,
                0,
                f"DC{index % 3 + 1:02d}.{root.name}",
                f"{root.objectid}-{rng.randint(1100, 9000)}",
                to_micros(created),
                to_micros(created + timedelta(days=rng.randint(1, 300))),
                None,
            )
        )
    return rows
