"""Word pools for the generated demo data: collector names, forests, OUs, messages, tags and selectors."""

from __future__ import annotations

CLIENT_NAMES = (
    "SHARPHOUND-DC01",
    "SHARPHOUND-NYC-02",
    "SHARPHOUND-LON-01",
    "SHARPHOUND-FRA-03",
    "SHARPHOUND-SGP-01",
    "SHARPHOUND-LAB",
    "SHARPHOUND-DMZ-01",
    "SHARPHOUND-SYD-02",
)

# Each client collects one forest: a root domain and some child domains.
FOREST_ROOTS = (
    "CONTOSO.COM",
    "FABRIKAM.LOCAL",
    "NORTHWIND.NET",
    "ADVENTUREWORKS.ORG",
    "TAILSPIN.CORP",
    "WINGTIP.LAB",
    "WOODGROVE.BANK",
    "LITWARE.INC",
)
CHILD_PREFIXES = ("CORP", "EU", "NA", "APAC", "DEV", "RESEARCH", "OT", "PARTNERS")

OU_NAMES = (
    "Servers",
    "Workstations",
    "Domain Controllers",
    "Service Accounts",
    "Admins",
    "Finance",
    "Human Resources",
    "Engineering",
    "Sales",
    "Disabled Users",
    "Kiosks",
    "SQL Servers",
    "Web Servers",
    "Jump Hosts",
    "Contractors",
)
OU_PARENTS = ("", "Tier 0", "Tier 1", "Corp", "Legacy")

DC_HOSTS = ("DC01", "DC02", "DC03", "RODC01", "ADDS-01", "ADDS-02")

EVENT_PLANS = (
    # (title pattern, frequency, flags: session, local_group, ad_structure, cert_services, ca_registry, dc_registry)
    ("Hourly sessions {scope}", "HOURLY", (1, 0, 0, 0, 0, 0)),
    ("Daily sessions {scope}", "DAILY", (1, 0, 0, 0, 0, 0)),
    ("Daily AD structure {scope}", "DAILY", (0, 0, 1, 0, 0, 0)),
    ("Daily local groups {scope}", "DAILY", (0, 1, 0, 0, 0, 0)),
    ("Daily full collection {scope}", "DAILY", (1, 1, 1, 1, 1, 1)),
    ("Weekly full collection {scope}", "WEEKLY", (1, 1, 1, 1, 1, 1)),
    ("Weekly ADCS {scope}", "WEEKLY", (0, 0, 0, 1, 1, 0)),
    ("Weekly DC registry {scope}", "WEEKLY", (0, 0, 0, 0, 0, 1)),
    ("Daily structure and ADCS {scope}", "DAILY", (0, 0, 1, 1, 0, 0)),
)
WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")

TASK_MESSAGES: dict[int, tuple[str, ...]] = {
    -1: ("Invalid task configuration: no collection targets resolved",),
    0: ("Waiting for the collector to check in",),
    1: ("Collecting: LDAP enumeration in progress", "Collecting: session enumeration in progress"),
    2: ("Collection completed successfully", "Collection completed successfully", ""),
    3: ("Canceled by admin@contoso.com", "Canceled by soc.lead@contoso.com", "Canceled: collector was shut down"),
    4: ("Collection timed out after 12 hours", "Collection timed out waiting for the collector to upload results"),
    5: (
        "The collector could not contact a domain controller: The LDAP server is unavailable. (0x51)",
        "Access is denied. (0x80070005) while enumerating local groups",
        "Kerberos authentication failed: KRB_AP_ERR_SKEW (clock skew too great)",
        "SharpHound exited with code 1: System.OutOfMemoryException",
        "Upload failed: the server closed the connection (HTTP 502)",
    ),
    6: ("Ingesting collected data",),
    7: ("Running post-ingest analysis",),
    8: (
        "Completed with errors: some domains could not be collected",
        "Completed with errors: session enumeration timed out on 112 hosts",
    ),
}

DOMAIN_FAILURES = (
    "Failed to connect to the domain controller: The LDAP server is unavailable.",
    "LDAP bind failed: Invalid credentials (49)",
    "Trust enumeration failed: The RPC server is unavailable. (0x800706BA)",
    "Timed out after 3600 seconds waiting for LDAP results",
    "Access is denied while reading the configuration partition",
)

TAG_PLANS = (
    # (type, name, description, glyph)
    (1, "Tier Zero", "Assets with control of the whole environment", None),
    (3, "Owned", "Principals the red team has compromised", "skull"),
    (2, "Crown Jewels", "Business-critical systems and data", "gem"),
    (1, "Tier One", "Server and application administration", None),
    (2, "PKI", "Certificate services and templates", "certificate"),
    (2, "Break Glass Accounts", "Emergency access accounts", "key"),
    (2, "Service Accounts", "Non-human accounts with broad rights", "robot"),
    (1, "Tier Two", "Workstation administration", None),
)

SELECTOR_SUBJECTS = (
    "Domain Admins",
    "Enterprise Admins",
    "Schema Admins",
    "Domain Controllers",
    "Administrators",
    "Backup Operators",
    "Account Operators",
    "Print Operators",
    "Server Operators",
    "Key Admins",
    "DnsAdmins",
    "Exchange Trusted Subsystem",
    "svc-backup",
    "svc-sql",
    "svc-sccm",
    "Tier 0 jump hosts",
    "PKI servers",
    "ADFS servers",
    "Azure AD Connect",
    "Privileged OU",
    "Helpdesk",
    "Finance file servers",
    "HR database",
    "Payroll app",
    "CI runners",
    "Vault cluster",
    "Citrix delivery controllers",
    "Golden image hosts",
)
SELECTOR_VERBS = ("members of", "objects in", "computers in", "users in", "accounts like", "hosts named")
SELECTOR_USERS = (
    "alice.admin@contoso.com",
    "bob.analyst@contoso.com",
    "carol.redteam@contoso.com",
    "dave.soc@contoso.com",
    "erin.iam@contoso.com",
    "frank.ops@contoso.com",
)
SELECTOR_SITES = ("", "", "", "EU", "NA", "APAC", "HQ", "DR site", "lab", "legacy", "prod", "staging", "2024 audit")
SYSTEM_ACTOR = "SYSTEM"
CYPHER_SEEDS = (
    "MATCH (n:Group) WHERE n.objectid ENDS WITH '-512' RETURN n",
    "MATCH (n:User) WHERE n.admincount = true RETURN n",
    "MATCH (n:Computer) WHERE n.operatingsystem CONTAINS 'Server' RETURN n",
    "MATCH (n:Base) WHERE n.name STARTS WITH 'SVC-' RETURN n",
    "MATCH (n:Computer)-[:DCFor]->(:Domain) RETURN n",
    "MATCH (n:CertTemplate) WHERE n.enrolleesuppliessubject = true RETURN n",
    "MATCH (n:User) WHERE n.hasspn = true AND n.enabled = true RETURN n",
    "MATCH (n:GPO) WHERE n.name CONTAINS 'TIER0' RETURN n",
    "MATCH (n:AZServicePrincipal)-[:AZMGGrantRole]->(:AZTenant) RETURN n",
)
