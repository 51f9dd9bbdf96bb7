"""The secret guard's first look at a tool's output, without loading the redactor.

Owns: `may_hold_secret`, true whenever the kit's one redactor (`session_kit.redact`) could
find anything in a text: it holds one of the strings the redactor's rules are anchored on
(`redact.screen_needles`) or matches a pattern of the rules found by a scan
(`redact.screen_scans`), copied here as constants so a hook needs no rule table to pass a
plain output through; tests/hooks/test_guard.py checks the copy is current,
and `python -m session_kit.hooks.secret_screen` writes it again). Decides nothing about
what a secret is: a true answer only means the redactor must look.

Speed: each needle costs a scan of the text. Most of them are a token's prefix and its
separator (`ghp_`, `xoxb-`); those are grouped by the separator and the two characters
before it, and scanned for only when some piece of the text split at that separator ends
with those two characters (one split per separator instead of a scan per prefix).
"""

from __future__ import annotations

# Generated from the redactor's rules: looked for in the lower-cased text.
LOWER = ('-stdin', '/user:', '7z', 'api', 'auth', 'bearer', 'config', 'cookie', 'credential', 'define(', 'expdp', 'impdp', 'key', 'ldap', 'lftp', 'login', 'machine', 'mongo', 'mosquitto_', 'mysql', 'name=', 'ncftp', 'openssl', 'pass', 'pw', 'rabbitmqctl', 'redis-cli', 'rman', 'run(', 'secret', 'seed', 'sig=', 'smbclient', 'sqlcmd', 'sqlldr', 'sqlplus', 'token', 'verifier', 'xfreerdp', 'zip')  # fmt: skip
# Generated from the redactor's rules: looked for as written.
EXACT = ('"d', '---- BEGIN SSH2', '-----BEGIN', '-U', '-a', '-hp', '-p', '-u', '.atlasv1.', '1//0', '://', ':AA', '<P>', 'AIza', 'AKCp', 'AT', 'EAA', 'IA', 'LTAI', 'MII', 'Q~', 'SG.', 'SK', 'b3BlbnNzaC1rZXktdjE', 'default', 'dp.', 'eyJ', 'hvb.', 'hvr.', 'hvs.', 'nsec1', 'oy2', 'pat', 'prv', 'sk.', 'untrusted comment:', 'ya29.')  # fmt: skip
# Generated from the redactor's rules: separator -> the two characters before it -> needles.
SEPARATED = {'-': {'AK': ('NRAK-', 'PMAK-'), 'BK': ('FLWPUBK-',), 'CK': ('FLWSECK-',), 'GE': ('AGE-',), 'II': ('NRII-',), 'JS': ('NRJS-',), 'KU': ('HRKU-',), 'PX': ('GOCSPX-',), 'ST': ('FLWPUBK_TEST-', 'FLWSECK_TEST-'), 'ai': ('xai-',), 'as': ('gloas-',), 'at': ('glsoat-',), 'bt': ('glcbt-',), 'dt': ('gldt-',), 'fc': ('fc-',), 'ft': ('glft-',), 'lx': ('pplx-',), 'ly': ('tvly-',), 'mt': ('glimt-',), 'nt': ('glagent-',), 'pi': ('pypi-',), 'pp': ('xapp-',), 'rt': ('glrt-',), 'sk': ('sk-',), 'sp': ('sq0csp-',), 'te': ('Private-',), 'tp': ('sq0atp-',), 'tr': ('glrtr-',), 'tt': ('glptt-',), 'ul': ('pul-',), 'xa': ('xoxa-',), 'xb': ('xoxb-',), 'xe': ('xoxe-',), 'xo': ('xoxo-',), 'xp': ('xoxp-',), 'xr': ('xoxr-',), 'xs': ('xoxs-',)}, '_': {'bp': ('sbp_',), 'ca': ('shpca_',), 'dp': ('ddp_',), 'dw': ('ddw_',), 'ec': ('whsec_',), 'fp': ('nfp_',), 'gd': ('figd_',), 'hf': ('hf_',), 'ho': ('gho_',), 'hp': ('ghp_',), 'hr': ('ghr_',), 'hs': ('ghs_',), 'hu': ('ghu_',), 'in': ('lin_',), 'kr': ('dckr_',), 'lc': ('glc_',), 'le': ('pscale_',), 'ms': ('rubygems_',), 'nb': ('pnb_',), 'nd': ('rnd_',), 'nu': ('pnu_',), 'o1': ('fo1_',), 'oo': ('doo_',), 'op': ('dop_',), 'or': ('dor_',), 'pa': ('shppa_',), 'pm': ('npm_',), 'ps': ('ops_',), 'r8': ('r8_',), 're': ('re_',), 'rk': ('rk_',), 'sa': ('glsa_',), 'sb': ('sb_',), 'sk': ('sk_',), 'ss': ('access_', 'shpss_'), 'tn': ('ntn_',), 'ua': ('bkua_',), 'ub': ('github_',), 'v2': ('lsv2_',), 'ys': ('sntrys_',), 'yu': ('sntryu_',)}}  # fmt: skip
# Generated from the redactor's rules: the patterns of the rules found by a scan.
SCANS = (':(?:\\d{1,5}|\\*):[^:\\s\\"\'\\\\\\x00]+:[^:\\s\\"\'\\\\\\x00]+:[^\\s\\"\'\\\\\\x00]', '[_-][A-Za-z0-9]{10}[A-Za-z0-9_-]{10}')  # fmt: skip
# end of generated part


def may_hold_secret(text: str) -> bool:
    """Whether the redactor could replace anything in `text` (false: it certainly cannot)."""
    low = text.lower()
    if any(needle in low for needle in LOWER) or any(needle in text for needle in EXACT):
        return True
    for separator, by_tail in SEPARATED.items():
        if separator not in text:
            continue
        tails = {piece[-2:] for piece in text.split(separator)[:-1]}
        for tail in tails.intersection(by_tail):
            if any(needle in text for needle in by_tail[tail]):
                return True
    return any(_may_match(pattern, text) for pattern in SCANS)


# The scan rules' patterns this module has a check for without `re` (a hook that loads `re`
# pays most of its budget): each check is true wherever its pattern could match, and more.
_PREFIXED = "[_-][A-Za-z0-9]{10}[A-Za-z0-9_-]{10}"  # a key with a prefix no rule names
_PGPASS = ":(?:\\d{1,5}|\\*):"  # how a `.pgpass` line's pattern starts: `:port:` or `:*:`


def _may_match(pattern: str, text: str) -> bool:
    if pattern == _PREFIXED:
        return any(
            len(piece) >= 10 and piece[:10].isalnum() for sep in "_-" if sep in text for piece in text.split(sep)[1:]
        )
    if pattern.startswith(_PGPASS):  # then `db:user:password`, none of them holding a space
        pieces = text.split(":")
        return any(
            0 < len(port) <= 5
            and (port.isdigit() or port == "*")
            and all(piece and not piece[0].isspace() and " " not in piece for piece in pieces[i + 1 : i + 3])
            and len(pieces) > i + 3
            and pieces[i + 3][:1] not in ("", " ", "\t", "\n")
            for i, port in enumerate(pieces[1:-3], start=1)
        )
    import re  # a scan rule with no check of its own yet: its pattern, exactly

    return re.search(pattern, text) is not None


def split_needles(exact: tuple[str, ...]) -> tuple[tuple[str, ...], dict[str, dict[str, tuple[str, ...]]]]:
    """The needles looked for as written: those scanned for one by one, and those grouped by
    their separator and the two characters before it (see the module's docstring)."""
    plain, grouped = [], {}
    for needle in exact:
        separator, tail = needle[-1:], needle[-3:-1]
        if separator in SEPARATORS and len(tail) == 2 and separator not in tail:
            grouped.setdefault(separator, {}).setdefault(tail, []).append(needle)
        else:
            plain.append(needle)
    for separator in [s for s, g in grouped.items() if sum(map(len, g.values())) < MIN_GROUPED]:
        plain += [n for needles in grouped.pop(separator).values() for n in needles]  # a split costs more
    return tuple(sorted(plain)), {s: {t: tuple(n) for t, n in sorted(g.items())} for s, g in sorted(grouped.items())}


SEPARATORS = "_-."
# A split of a 64 KB text at a frequent separator costs what about 15 scans do: fewer needles
# than this behind one separator are scanned for one by one.
MIN_GROUPED = 16


def module_text(current: str) -> str:
    """This module's source with its generated part made from the redactor's rules."""
    from session_kit.redact import screen_needles, screen_scans

    lower, exact = screen_needles()
    plain, separated = split_needles(exact)
    head, _, rest = current.partition("# Generated from the redactor's rules: looked for in the lower-cased text.\n")
    _, _, tail = rest.partition("# end of generated part\n")
    return (
        head
        + "# Generated from the redactor's rules: looked for in the lower-cased text.\n"
        + f"LOWER = {lower!r}  # fmt: skip\n"
        + "# Generated from the redactor's rules: looked for as written.\n"
        + f"EXACT = {plain!r}  # fmt: skip\n"
        + "# Generated from the redactor's rules: separator -> the two characters before it -> needles.\n"
        + f"SEPARATED = {separated!r}  # fmt: skip\n"
        + "# Generated from the redactor's rules: the patterns of the rules found by a scan.\n"
        + f"SCANS = {screen_scans()!r}  # fmt: skip\n"
        + "# end of generated part\n"
        + tail
    )


if __name__ == "__main__":
    with open(__file__, encoding="utf-8") as f:
        source = f.read()
    with open(__file__, "w", encoding="utf-8") as f:
        f.write(module_text(source))
