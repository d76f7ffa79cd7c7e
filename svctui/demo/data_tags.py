"""Asset group tags (tiers, labels, owned) and their selectors (some default, some disabled) for the demo data."""

from __future__ import annotations

import random
import sqlite3
from datetime import datetime, timedelta

from svctui.demo import names
from svctui.demo.config import DemoSizes
from svctui.demo.db import insert
from svctui.demo.repo_write import EXTENSION_ACTOR
from svctui.demo.timefmt import to_micros

BUILT_IN = ("Tier Zero", "Owned")
# Selectors an installed extension owns (rule_key, extension_id), by tag number: (tag, extension, rule, name, seed)
EXTENSION_RULES = (
    (
        1,
        1,
        "entra-global-admins",
        "Entra ID global administrators",
        "MATCH (n:AZRole) WHERE n.name = 'GLOBAL ADMIN' RETURN n",
    ),
    (
        1,
        1,
        "entra-privileged-auth-admins",
        "Entra ID privileged authentication admins",
        "MATCH (n:AZRole) WHERE n.name = 'PRIVILEGED AUTHENTICATION ADMINISTRATOR' RETURN n",
    ),
    (3, 2, "github-org-owners", "GitHub organisation owners", "MATCH (n:GHUser)-[:GHOwns]->(:GHOrganization) RETURN n"),
)


def tag_plans(count: int) -> list[tuple[int, str, str, str | None]]:
    """The first `count` tag plans, with synthesized labels beyond the named ones."""
    plans: list[tuple[int, str, str, str | None]] = list(names.TAG_PLANS[:count])
    for number in range(len(plans), count):
        plans.append((2, f"Label {number + 1}", f"Generated label number {number + 1}", None))
    return plans


def selector_shares(total: int, tag_count: int) -> list[int]:
    """Split `total` selectors: the first tag (Tier Zero) takes four shares, every other tag one."""
    weights = [4 if index == 0 else 1 for index in range(tag_count)]
    shares = [total * weight // sum(weights) for weight in weights]
    for index in range(total - sum(shares)):
        shares[index % tag_count] += 1
    return shares


def seeds_for(rng: random.Random) -> list[tuple[int, str]]:
    """1-3 object-id seeds (SIDs) or one Cypher seed."""
    if rng.random() < 0.3:
        return [(2, rng.choice(names.CYPHER_SEEDS))]
    domain = f"S-1-5-21-{rng.randint(10**9, 4 * 10**9)}-{rng.randint(10**9, 4 * 10**9)}-{rng.randint(10**8, 4 * 10**9)}"
    return [
        (1, f"{domain}-{rng.choice((512, 519, 518, 544, 548, 551, rng.randint(1100, 9999)))}")
        for _ in range(rng.randint(1, 3))
    ]


def generate_tags(conn: sqlite3.Connection, rng: random.Random, sizes: DemoSizes, anchor: datetime) -> None:
    """Write tags, selectors and selector seeds."""
    plans = tag_plans(sizes.tags)
    tag_rows: list[tuple[object, ...]] = []
    tier_position = 0
    for tag_id, (tag_type, name, description, glyph) in enumerate(plans, start=1):
        created = anchor - timedelta(days=rng.randint(200, 700), minutes=rng.randint(0, 1439))
        updated = created + timedelta(days=rng.randint(0, 150))
        author = names.SYSTEM_ACTOR if name in BUILT_IN else rng.choice(names.SELECTOR_USERS)
        is_tier = tag_type == 1
        tier_position += 1 if is_tier else 0
        tag_rows.append(
            (
                tag_id,
                tag_type,
                150 + tag_id * 3 + rng.randint(0, 2),
                name,
                description,
                to_micros(created),
                author,
                to_micros(updated),
                author if rng.random() < 0.7 else rng.choice(names.SELECTOR_USERS),
                None,
                None,
                tier_position if is_tier else None,
                int(rng.random() < 0.3 or tier_position == 1) if is_tier else None,  # Tier Zero requires it
                int(rng.random() < 0.8) if is_tier else None,
                glyph,
            )
        )
    selectors: list[list[object]] = []
    for tag_id, share in enumerate(selector_shares(sizes.selectors, len(plans)), start=1):
        tag_type, tag_name = plans[tag_id - 1][0], plans[tag_id - 1][1]
        defaults = min(8, share // 4) if tag_name == "Tier Zero" else (1 if tag_name == "Owned" and share else 0)
        used: set[str] = set()
        for number in range(share):
            subject = rng.choice(names.SELECTOR_SUBJECTS)
            name = f"{rng.choice(names.SELECTOR_VERBS).capitalize()} {subject}"
            while name in used:
                name = f"{name} {rng.choice(('EU', 'NA', 'APAC', 'lab', 'legacy', 'v2', 'new'))}"
            used.add(name)
            is_default = number < defaults
            created = anchor - timedelta(
                days=rng.randint(1, 400), minutes=rng.randint(0, 1439), seconds=rng.randint(0, 59)
            )
            updated = min(created + timedelta(days=rng.randint(0, 60), minutes=rng.randint(0, 600)), anchor)
            author = names.SYSTEM_ACTOR if is_default else rng.choice(names.SELECTOR_USERS)
            disabled = (not is_default) and rng.random() < 0.08
            selectors.append(
                [
                    0,
                    tag_id,
                    name,
                    "" if rng.random() < 0.2 else f"Selects {name.lower()} for {tag_name}",
                    to_micros(created),
                    author,
                    to_micros(updated),
                    author if rng.random() < 0.8 else rng.choice(names.SELECTOR_USERS),
                    to_micros(updated) if disabled else None,
                    rng.choice(names.SELECTOR_USERS) if disabled else None,
                    rng.choice((0, 1, 2)) if tag_type == 1 else 0,
                    int(is_default),
                    int(not is_default or rng.random() < 0.5),
                    rng.randint(0, 5000),
                ]
            )
    selectors.sort(key=lambda row: (row[4], row[1], row[2]))
    seed_rows: list[tuple[object, ...]] = []
    for selector_id, row in enumerate(selectors, start=1):
        row[0] = selector_id
        seed_rows.extend((selector_id, kind, value, i) for i, (kind, value) in enumerate(seeds_for(rng)))
    insert(conn, "tags", tag_rows)
    insert(conn, "selectors", [(*row, None, None) for row in selectors])
    insert(conn, "selector_seeds", seed_rows)
    extension_selectors(conn, len(plans), len(selectors), anchor)


def extension_selectors(conn: sqlite3.Connection, tag_count: int, last_id: int, anchor: datetime) -> None:
    """The extension-owned selectors and the rules behind them, after every other selector (the ids before them and
    the random streams stay as they were): each one's extension re-creates it after a delete (`sync_extensions`)."""
    rules: list[tuple[object, ...]] = []
    rows: list[tuple[object, ...]] = []
    seeds: list[tuple[object, ...]] = []
    if last_id == 0:  # `--selectors 0` asks for none at all
        return
    for number, (tag_id, extension_id, rule_key, name, cypher) in enumerate(EXTENSION_RULES, start=1):
        if tag_id > tag_count:
            continue
        description = f"Created by extension {extension_id} (rule {rule_key})"
        rules.append((extension_id, rule_key, tag_id, name, description, 2, cypher))
        created = to_micros(anchor - timedelta(days=30 + number, hours=number))
        selector_id = last_id + len(rows) + 1
        rows.append(
            (selector_id, tag_id, name, description, created, EXTENSION_ACTOR, created, EXTENSION_ACTOR, None, None,
             0, 0, 1, 40 * number + 3, rule_key, extension_id)
        )  # fmt: skip
        seeds.append((selector_id, 2, cypher, 0))
    insert(conn, "extension_rules", rules)
    insert(conn, "selectors", rows)
    insert(conn, "selector_seeds", seeds)
