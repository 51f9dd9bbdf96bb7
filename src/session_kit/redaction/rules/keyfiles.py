"""Private keys in files other than PEM (`KEY_FILE_RULES`): PuTTY's private lines and MAC, SSH2
(SECSH) keys, a private key's base64 body without its header (found by the DER or OpenSSH prefix
every such body starts with), JWK private members, .NET's `<RSAKeyValue>` private elements,
minisign secret keys, age secret keys and plugin identities; and an XML element named for a
secret (`<password>…</password>`). Applied just before `contexts.CONTEXT_RULES`. Each rule
carries samples it must redact and texts it must leave (tests/redaction/test_samples.py). Does
not apply them (that is `redaction.engine`).
"""

from __future__ import annotations

from session_kit.redaction.rules.formats import _NOT_A_VALUE, Pattern, Rule, _is_value

# Where a line may break inside a key file's body: a newline (also JSON-escaped), and a Markdown
# quote's `>` or indentation after it.
_BREAK = r"(?:(?:\\+[rn]|\s)+(?:>[ \t]?)?)"
_B64_LINES = r"[A-Za-z0-9+/=]{8,}(?:" + _BREAK + r"[A-Za-z0-9+/=]{16,})*"

# The first characters of a private key's base64 body (DER or OpenSSH), found without its
# header: after `MII` (RSA in PKCS#1 and PKCS#8, encrypted PKCS#8) and OpenSSH's magic.
_BODY_STARTS = (
    "MII[A-Za-z0-9+/]{3}IBAAKC",  # PKCS#1 RSA: version 0, then the modulus
    "MII[A-Za-z0-9+/]{3}IBADANBgkqhkiG9w0BAQEFAAS",  # PKCS#8 RSA
    "MII[A-Za-z0-9+/]{5}BgkqhkiG9w0BBQ0w",  # encrypted PKCS#8 (PBES2)
    "b3BlbnNzaC1rZXktdjE",  # openssh-key-v1
    "MII[A-Za-z0-9+/]{5}IBAzCC",  # PKCS#12 (a .p12/.pfx file): version 3
    "MHcCAQEEI",  # EC P-256, SEC 1
    "MIGkAgEBBD",  # EC P-384, SEC 1
    "MC4CAQAwBQYDK2Vw",  # Ed25519, PKCS#8
)

_JWK_MEMBERS = ("d", "p", "q", "dp", "dq", "qi")
_XML_MEMBERS = ("D", "P", "Q", "DP", "DQ", "InverseQ")

KEY_FILE_RULES: tuple[Rule, ...] = (
    Rule(
        "private-key",
        Pattern(r"Private-Lines:\s*\d+" + _BREAK + r"(?P<v>" + _B64_LINES + ")"),
        ("Private-",),  # one scan for both of PuTTY's rules
        exact=True,
        group="v",
        samples=(
            "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy@ci\nPublic-Lines: 2\n619pG31oBVxgiTZ0I077yb0r+J+OCeLJ+r731QXqR9j7b7ef/owkJOd1hF0kKIqU\n0lGxRJNY2TlL9eegFr5Y\nPrivate-Lines: 1\nht4VFs1aL+DhnJyiiTOFtJg0RFxrn24nsNsIPq3qWJ0C\nPrivate-MAC: 28d429641bbd14e6aad7c38c6ca507634b24cc608f7e7c0cc5089b7106c8deca",
        ),
        not_samples=("Private-Lines: 14 counts the lines of the encrypted part",),
    ),
    Rule(
        "private-key",
        Pattern(r"Private-MAC:\s*(?P<v>[0-9a-fA-F]{32,})"),
        ("Private-",),
        exact=True,
        group="v",
        samples=(
            "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy@ci\nPublic-Lines: 2\n619pG31oBVxgiTZ0I077yb0r+J+OCeLJ+r731QXqR9j7b7ef/owkJOd1hF0kKIqU\n0lGxRJNY2TlL9eegFr5Y\nPrivate-Lines: 1\nht4VFs1aL+DhnJyiiTOFtJg0RFxrn24nsNsIPq3qWJ0C\nPrivate-MAC: 28d429641bbd14e6aad7c38c6ca507634b24cc608f7e7c0cc5089b7106c8deca",
        ),
        not_samples=("Private-MAC: (none)",),
    ),
    Rule(
        "private-key",
        Pattern(
            r"---- BEGIN SSH2 (?:ENCRYPTED )?PRIVATE KEY ----"
            + r"(?:"
            + _BREAK
            + r"[A-Za-z][A-Za-z-]*: (?:[^\n\\\x00]|\\\")*)*"
            + _BREAK
            + r"(?P<v>"
            + _B64_LINES
            + ")"
        ),
        ("---- BEGIN SSH2",),
        exact=True,
        group="v",
        samples=(
            '---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: "rsa-key-20260101"\nJZqjD6upDUzVvMX6ez4yUiii8NLAXb1UOAeZVK7EqZAJJyqQBmdH1Lce7CTk96zM/7Fqrb\nuofwY8iax/Ze9wtz1n/7KtWJHL9QNKsJ9I1r7xOZYvhQCIwsUBOlLJ/OTOL1bflthuHaLX\nT8lsrzQvSIGfkOrZUg5W0hJdNx/HPs/VCI0UI62lusbhs0AKtxI03w8ZkAB5gA5gVV5KSU\n---- END SSH2 ENCRYPTED PRIVATE KEY ----',
        ),
        not_samples=(
            '---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: "rsa-key-20260101"\n${TOKEN}\n---- END SSH2 ENCRYPTED PRIVATE KEY ----',
        ),
    ),
    Rule(
        "private-key",
        Pattern(
            r"(?:(?<![A-Za-z0-9+/])|(?<=\\[nr]))(?P<v>(?:"
            + "|".join(_BODY_STARTS)
            + r")[A-Za-z0-9+/=]{8,}(?:"
            + _BREAK
            + r"[A-Za-z0-9+/=]{16,})*)"
        ),
        ("MII", "b3BlbnNzaC1rZXktdjE", "MHcCAQEEI", "MIGkAgEBBD", "MC4CAQAwBQYDK2Vw"),
        exact=True,
        group="v",
        samples=("MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",),
        not_samples=("MIIFHDBOBgkqhkiG",),
    ),
    Rule(
        "private-key",
        # found at `"d`: every private JWK has `d`, the private members follow it (p, q, dp…)
        Pattern(
            r"\"d\\*\"\s*:\s*\\*\"(?P<v>[A-Za-z0-9_-]{20,}(?:\\*\"\s*,\s*\\*\"(?:"
            + "|".join(_JWK_MEMBERS)
            + r")\\*\"\s*:\s*\\*\"[A-Za-z0-9_-]+)*)\\*\""
        ),
        ('"d',),
        exact=True,
        group="v",
        samples=(
            '{"kty": "OKP", "crv": "Ed25519", "x": "5ybbQZIA98Gi3yqm_vI3Ak6mKg9vPcSCCKdDf3F1ktj", "d": "6x2AXWhrtOW1oUqpjV2mThkhjOBvsQppJq8an_NW-RE"}',
        ),
        not_samples=(
            '{"kty": "OKP", "crv": "Ed25519", "x": "5ybbQZIA98Gi3yqm_vI3Ak6mKg9vPcSCCKdDf3F1ktj", "d": "6x2AXWhrtOW1oU"}',
        ),
    ),
    Rule(
        "private-key",
        # found at `<P>`, the first private member .NET writes; the others after it go with it
        Pattern(
            r"<P>(?P<v>[A-Za-z0-9+/=]{20,}</P>(?:\s*<(?P<t>" + "|".join(_XML_MEMBERS) + r")>[A-Za-z0-9+/=]+</(?P=t)>)*)"
        ),
        ("<P>",),
        exact=True,
        group="v",
        samples=(
            "<RSAKeyValue><Modulus>cR+mvNfDOgR737gSl9kop/rY81ZxN9/ft59TriYwBigbelOLwn4jo8ITNHUbxYsP74PxVdoMCeqUEk4jkS0SKf2b</Modulus><Exponent>AQAB</Exponent><P>5lJ+CVncOqgU9ORUk6OFwnHLlZJVea8oW8gDfCqh1FnN</P><D>Tzp9MRz15NO+9kxaoMyY5FsiH0eVj3h4hkfJKb52ty4LE6bsUKmGboPsL4uZew8XVRh3w4ZgIJhrb3POhT4SlQId</D></RSAKeyValue>",
        ),
        not_samples=(
            "<RSAKeyValue><Modulus>cR+mvNfDOgR737gSl9kop/rY81ZxN9/ft59TriYwBigbelOLwn4jo8ITNHUbxYsP74PxVdoMCeqUEk4jkS0SKf2b</Modulus><Exponent>AQAB</Exponent><P>5lJ+CVncOqgU9ORUk6OFwnHLlZJVea8oW8gDfCqh1FnN</P</RSAKeyValue>",
        ),
    ),
    Rule(
        "private-key",
        Pattern(r"untrusted comment: [^\n\x00]*secret key" + _BREAK + r"(?P<v>[A-Za-z0-9+/=]{40,})"),
        ("untrusted comment:",),
        exact=True,
        group="v",
        samples=(
            "untrusted comment: minisign encrypted secret key\nRWRTY0IyEVGphTwL/Ah9zJ5QytxYGHZU/Nd+H/8fqC37hxxeJRP6yrbTTrD0NFd2yb19weASM1DEfjnKhzAmOW5CQK1SjNFo2Ejj86Nt49X9SLM0R5OoihekGxLAxZKvYM5iVR0zBurgtpvSkNjIwXLz1a49IC",
        ),
        not_samples=("untrusted comment: minisign encrypted secret key\n${TOKEN}",),
    ),
    # an XML element named for a secret: `<password>…</password>`, `<apiKey>…</apiKey>`
    Rule(
        "secret",
        Pattern(
            r"(?i)(?:password|passwd|secret|token|key)>"
            + _NOT_A_VALUE
            + r"(?P<v>[^<>\s\x00]{4,})</[a-z_:-]*(?:password|passwd|secret|token|key)>"
        ),
        ("pass", "secret", "token", "key"),  # scanned for the assignments anyway
        group="v",
        accept=_is_value,
        samples=("<connection>\n  <user>app</user>\n  <password>k2mon0n4DJ*Tp3y</password>\n</connection>",),
        not_samples=("<connection>\n  <user>app</user>\n  <password>${TOKEN}</password>\n</connection>",),
    ),
    Rule(
        "age-secret-key",
        Pattern(r"AGE-(?:SECRET-KEY|PLUGIN-[A-Z0-9]+)-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{30,}"),
        ("AGE-",),
        exact=True,
        samples=("AGE-SECRET-KEY-15N9R9QLS7U06X0WZX37N22L33Q5W6SNW78XW5JVVATRWRAFN0VLMA057KA",),
        not_samples=("AGE-SECRET-KEY-15N9R9QLS",),
    ),
)
