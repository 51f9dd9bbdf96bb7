"""The secret guard's first look at a tool's output, without loading the redactor.

Owns: `may_hold_secret`, true whenever the kit's one redactor (`session_kit.redaction.engine`) could
find anything in a text: it holds one of the strings the redactor's rules are anchored on
(`redaction.table.screen_needles`) or matches a pattern of the rules found by a scan
(`redaction.table.screen_scans`), copied here as constants so a hook needs no rule table to pass a
plain output through; tests/hooks/test_guard.py checks the copy is current,
and `python -m session_kit.redaction.screen` writes it again). Decides nothing about
what a secret is: a true answer only means the redactor must look.

Speed: a search of the whole text costs the same for each needle, and there are over a
hundred. So the text is first turned, in C, into its distinct words (`base.words`), and the
text itself is searched only for a needle whose own words are all among them (a needle of one
or two characters often is, a longer one rarely). The scan rules' patterns have checks of their
own, without `re`.
"""

from __future__ import annotations

from session_kit.base.words import distinct_words, runs, words_table

# Generated from the redactor's rules: how a text becomes its words (`words_table`).
WORDS_TABLE = b'          \n                       "     ()   -./0000000000: <=>  abcdefghijklmnopqrstuvwxyz[ ] _ abcdefghijklmnopqrstuvwxyz   ~                                                                                                                                 '  # fmt: skip
# Generated from the redactor's rules: (needle, looked for as written (else in the lower-cased
# text), its runs: the words of the needle, each of which a word of the text holds).
CHECKS = (('-b', False, (b'-b',)), ('-stdin', False, (b'-stdin',)), ('/user:', False, (b'/user:',)), ('7z', False, (b'0z',)), ('[]byte', False, (b'[]byte',)), ('account', False, (b'account',)), ('aesgcm', False, (b'aesgcm',)), ('api', False, (b'api',)), ('auth', False, (b'auth',)), ('b64decode', False, (b'b00decode',)), ('backup', False, (b'backup',)), ('base64', False, (b'base00',)), ('basic', False, (b'basic',)), ('bearer', False, (b'bearer',)), ('bind', False, (b'bind',)), ('bootstrap', False, (b'bootstrap',)), ('buffer.from', False, (b'buffer.from',)), ('bw ', False, (b'bw',)), ('cat ', False, (b'cat',)), ('chacha20', False, (b'chacha00',)), ('client(', False, (b'client(',)), ('config', False, (b'config',)), ('connect', False, (b'connect',)), ('cookie', False, (b'cookie',)), ('credential', False, (b'credential',)), ('data:', False, (b'data:',)), ('decodestring', False, (b'decodestring',)), ('define(', False, (b'define(',)), ('digest', False, (b'digest',)), ('expdp', False, (b'expdp',)), ('expect', False, (b'expect',)), ('fernet', False, (b'fernet',)), ('find-', False, (b'find-',)), ('from_hex', False, (b'from_hex',)), ('fromhex', False, (b'fromhex',)), ('get-parameter', False, (b'get-parameter',)), ('handler(', False, (b'handler(',)), ('header', False, (b'header',)), ('hex.decode', False, (b'hex.decode',)), ('hex::decode', False, (b'hex::decode',)), ('hmac.new', False, (b'hmac.new',)), ('hook', False, (b'hook',)), ('identified', False, (b'identified',)), ('impdp', False, (b'impdp',)), ('initial', False, (b'initial',)), ('jdbc:oracle', False, (b'jdbc:oracle',)), ('join', False, (b'join',)), ('key', False, (b'key',)), ('kubeadm', False, (b'kubeadm',)), ('ldap', False, (b'ldap',)), ('lftp', False, (b'lftp',)), ('login', False, (b'login',)), ('logon', False, (b'logon',)), ('machine', False, (b'machine',)), ('mnemonic', False, (b'mnemonic',)), ('mongo', False, (b'mongo',)), ('mosquitto_', False, (b'mosquitto_',)), ('mysql', False, (b'mysql',)), ('name', False, (b'name',)), ('ncftp', False, (b'ncftp',)), ('net ', False, (b'net',)), ('oath', False, (b'oath',)), ('op ', False, (b'op',)), ('openssl', False, (b'openssl',)), ('otp', False, (b'otp',)), ('pass', False, (b'pass',)), ('pdo', False, (b'pdo',)), ('phrase', False, (b'phrase',)), ('printenv', False, (b'printenv',)), ('private', False, (b'private',)), ('psk', False, (b'psk',)), ('pw', False, (b'pw',)), ('rabbitmqctl', False, (b'rabbitmqctl',)), ('recovery', False, (b'recovery',)), ('redis-cli', False, (b'redis-cli',)), ('rman', False, (b'rman',)), ('run(', False, (b'run(',)), ('secret', False, (b'secret',)), ('seed', False, (b'seed',)), ('sequelize', False, (b'sequelize',)), ('sess', False, (b'sess',)), ('setup', False, (b'setup',)), ('shared', False, (b'shared',)), ('sig=', False, (b'sig=',)), ('sign_in', False, (b'sign_in',)), ('signature', False, (b'signature',)), ('signin', False, (b'signin',)), ('smbclient', False, (b'smbclient',)), ('solana', False, (b'solana',)), ('sqlcmd', False, (b'sqlcmd',)), ('sqlldr', False, (b'sqlldr',)), ('sqlplus', False, (b'sqlplus',)), ('tcp(', False, (b'tcp(',)), ('token', False, (b'token',)), ('twilio', False, (b'twilio',)), ('unhexlify', False, (b'unhexlify',)), ('unix(', False, (b'unix(',)), ('unseal', False, (b'unseal',)), ('vault', False, (b'vault',)), ('verifier', False, (b'verifier',)), ('wallet', False, (b'wallet',)), ('wg ', False, (b'wg',)), ('wif', False, (b'wif',)), ('xfreerdp', False, (b'xfreerdp',)), ('zip', False, (b'zip',)), ('"d', True, (b'"d',)), ('---- BEGIN SSH2', True, (b'----', b'begin', b'ssh0')), ('-U', True, (b'-u',)), ('-a', True, (b'-a',)), ('-hp', True, (b'-hp',)), ('-p', True, (b'-p',)), ('-u', True, (b'-u',)), ('.atlasv1.', True, (b'.atlasv0.',)), ('1) ', True, (b'0)',)), ('1. ', True, (b'0.',)), ('1//0', True, (b'0//0',)), ('://', True, (b'://',)), (':AA', True, (b':aa',)), ('<P>', True, (b'<p>',)), ('AGE-', True, (b'age-',)), ('AIza', True, (b'aiza',)), ('AKCp', True, (b'akcp',)), ('AT', True, (b'at',)), ('EAA', True, (b'eaa',)), ('ED25519-V3:', True, (b'ed00000-v0:',)), ('FALSE', True, (b'false',)), ('FLWPUBK-', True, (b'flwpubk-',)), ('FLWPUBK_TEST-', True, (b'flwpubk_test-',)), ('FLWSECK-', True, (b'flwseck-',)), ('FLWSECK_TEST-', True, (b'flwseck_test-',)), ('FwoGZXIvYXdz', True, (b'fwogzxivyxdz',)), ('GOCSPX-', True, (b'gocspx-',)), ('HRKU-', True, (b'hrku-',)), ('IA', True, (b'ia',)), ('IQoJb3JpZ2luX2Vj', True, (b'iqojb0jpz0lux0vj',)), ('LS0tLS1CRUdJTi', True, (b'ls0tls0crudjti',)), ('LTAI', True, (b'ltai',)), ('MC4CAQAwBQYDK2Vw', True, (b'mc0caqawbqydk0vw',)), ('MHcCAQEEI', True, (b'mhccaqeei',)), ('MIGkAgEBBD', True, (b'migkagebbd',)), ('MII', True, (b'mii',)), ('NRAK-', True, (b'nrak-',)), ('NRII-', True, (b'nrii-',)), ('NRJS-', True, (b'nrjs-',)), ('PMAK-', True, (b'pmak-',)), ('Q~', True, (b'q~',)), ('SG.', True, (b'sg.',)), ('SK', True, (b'sk',)), ('TRUE', True, (b'true',)), ('access_', True, (b'access_',)), ('b3BlbnNzaC1rZXktdjE', True, (b'b0blbnnzac0rzxktdje',)), ('bkua_', True, (b'bkua_',)), ('dckr_', True, (b'dckr_',)), ('ddp_', True, (b'ddp_',)), ('ddw_', True, (b'ddw_',)), ('default', True, (b'default',)), ('doo_', True, (b'doo_',)), ('dop_', True, (b'dop_',)), ('dor_', True, (b'dor_',)), ('dp.', True, (b'dp.',)), ('ewog', True, (b'ewog',)), ('eyJ', True, (b'eyj',)), ('fc-', True, (b'fc-',)), ('figd_', True, (b'figd_',)), ('fo1_', True, (b'fo0_',)), ('gho_', True, (b'gho_',)), ('ghp_', True, (b'ghp_',)), ('ghr_', True, (b'ghr_',)), ('ghs_', True, (b'ghs_',)), ('ghu_', True, (b'ghu_',)), ('github_', True, (b'github_',)), ('glagent-', True, (b'glagent-',)), ('glc_', True, (b'glc_',)), ('glcbt-', True, (b'glcbt-',)), ('gldt-', True, (b'gldt-',)), ('glft-', True, (b'glft-',)), ('glimt-', True, (b'glimt-',)), ('gloas-', True, (b'gloas-',)), ('glptt-', True, (b'glptt-',)), ('glrt-', True, (b'glrt-',)), ('glrtr-', True, (b'glrtr-',)), ('glsa_', True, (b'glsa_',)), ('glsoat-', True, (b'glsoat-',)), ('hf_', True, (b'hf_',)), ('hvb.', True, (b'hvb.',)), ('hvr.', True, (b'hvr.',)), ('hvs.', True, (b'hvs.',)), ('lin_', True, (b'lin_',)), ('lsv2_', True, (b'lsv0_',)), ('nfp_', True, (b'nfp_',)), ('nmcli', True, (b'nmcli',)), ('npm_', True, (b'npm_',)), ('nsec1', True, (b'nsec0',)), ('ntn_', True, (b'ntn_',)), ('ops_', True, (b'ops_',)), ('oy2', True, (b'oy0',)), ('pat', True, (b'pat',)), ('pnb_', True, (b'pnb_',)), ('pnu_', True, (b'pnu_',)), ('pplx-', True, (b'pplx-',)), ('prv', True, (b'prv',)), ('pscale_', True, (b'pscale_',)), ('pul-', True, (b'pul-',)), ('pypi-', True, (b'pypi-',)), ('r8_', True, (b'r0_',)), ('re_', True, (b're_',)), ('rk_', True, (b'rk_',)), ('rnd_', True, (b'rnd_',)), ('rubygems_', True, (b'rubygems_',)), ('sb_', True, (b'sb_',)), ('sbp_', True, (b'sbp_',)), ('sha256~', True, (b'sha000~',)), ('shpca_', True, (b'shpca_',)), ('shppa_', True, (b'shppa_',)), ('shpss_', True, (b'shpss_',)), ('sk-', True, (b'sk-',)), ('sk.', True, (b'sk.',)), ('sk_', True, (b'sk_',)), ('snmp', True, (b'snmp',)), ('sntrys_', True, (b'sntrys_',)), ('sntryu_', True, (b'sntryu_',)), ('sq0atp-', True, (b'sq0atp-',)), ('sq0csp-', True, (b'sq0csp-',)), ('tvly-', True, (b'tvly-',)), ('untrusted comment:', True, (b'untrusted', b'comment:')), ('whsec_', True, (b'whsec_',)), ('xai-', True, (b'xai-',)), ('xapp-', True, (b'xapp-',)), ('xoxa-', True, (b'xoxa-',)), ('xoxb-', True, (b'xoxb-',)), ('xoxe-', True, (b'xoxe-',)), ('xoxo-', True, (b'xoxo-',)), ('xoxp-', True, (b'xoxp-',)), ('xoxr-', True, (b'xoxr-',)), ('xoxs-', True, (b'xoxs-',)), ('ya29.', True, (b'ya00.',)))  # fmt: skip
# Generated from the redactor's rules: the patterns of the rules found by a scan.
SCANS = (':(?:\\d{1,5}|\\*):[^:\\s\\"\'\\\\\\x00]+:[^:\\s\\"\'\\\\\\x00]+:[^\\s\\"\'\\\\\\x00]', '[_-][A-Za-z0-9]{10}[A-Za-z0-9_-]{10}')  # fmt: skip
# end of generated part

_RUNS = frozenset(run for _, _, needed in CHECKS for run in needed)


def may_hold_secret(text: str) -> bool:
    """Whether the redactor could replace anything in `text` (false: it certainly cannot)."""
    low = text.lower()
    data = low.encode("utf-8", "surrogatepass")
    words = distinct_words(data, WORDS_TABLE)
    present = {run for run in _RUNS if run in words}
    for needle, written, needed in CHECKS:
        if present.issuperset(needed) and needle in (text if written else low):
            return True
    return any(_may_match(pattern, text, data, words) for pattern in SCANS)


# The scan rules' patterns this module has a check for without `re` (a hook that loads `re`
# pays most of its budget): each check is true wherever its pattern could match, and more.
_PREFIXED = "[_-][A-Za-z0-9]{10}[A-Za-z0-9_-]{10}"  # a key with a prefix no rule names
_PGPASS = ":(?:\\d{1,5}|\\*):"  # how a `.pgpass` line's pattern starts: `:port:` or `:*:`
# A text's shape for `_PREFIXED`: an ASCII letter or digit as `a`, `-` and `_` as `_`, the rest cut.
_SHAPE_TABLE = bytearray(b" " * 256)
_SHAPE_TABLE[48:58], _SHAPE_TABLE[65:91], _SHAPE_TABLE[97:123] = b"a" * 10, b"a" * 26, b"a" * 26
_SHAPE_TABLE[45] = _SHAPE_TABLE[95] = 95
_AFTER_SEPARATOR = b"_" + b"a" * 10


def _may_match(pattern: str, text: str, data: bytes, words: bytes) -> bool:
    """Whether `pattern` could match `text` (`data`: the lower-cased text, encoded; `words`: its
    words)."""
    if pattern == _PREFIXED:  # lower case has the shape the text has (ASCII stays ASCII)
        shape = data.translate(_SHAPE_TABLE)
        at = shape.find(_AFTER_SEPARATOR)
        while at >= 0:
            tail = shape[at + 11 : at + 21]
            if len(tail) == 10 and not tail.translate(None, b"a_"):
                return True
            at = shape.find(_AFTER_SEPARATOR, at + 1)
        return False
    if pattern.startswith(_PGPASS):  # then `db:user:password`, none of them holding a space
        # a port's digits are each `0` in the words, and `:` is a word's byte
        if ":*:" not in text and not any(b":" + b"0" * n + b":" in words for n in range(1, 6)):
            return False
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


GENERATED = "# Generated from the redactor's rules: how a text becomes its words (`words_table`).\n"


def module_text(current: str) -> str:
    """This module's source with its generated part made from the redactor's rules."""
    from session_kit.redaction.table import screen_needles, screen_scans

    lower, exact = screen_needles()
    table = words_table(lower + exact)
    checks = tuple(
        (needle, written, runs(needle, table))
        for needles, written in ((lower, False), (exact, True))
        for needle in needles
    )
    head, _, rest = current.partition(GENERATED)
    _, _, tail = rest.partition("# end of generated part\n")
    return (
        head
        + GENERATED
        + f"WORDS_TABLE = {table!r}  # fmt: skip\n"
        + "# Generated from the redactor's rules: (needle, looked for as written (else in the lower-cased\n"
        + "# text), its runs: the words of the needle, each of which a word of the text holds).\n"
        + f"CHECKS = {checks!r}  # fmt: skip\n"
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
