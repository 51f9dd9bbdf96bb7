"""The secret guard's first look at a tool's output, without loading the redactor.

Owns: `may_hold_secret`, true whenever the kit's one redactor (`session_kit.redact`) could
find anything in a text: it holds one of the strings the redactor's rules are anchored on
(`redact.screen_needles`, copied here as constants so a hook needs neither `re` nor the rule
table to pass a plain output through; tests/hooks/test_guard.py checks the copy is current,
and `python -m session_kit.hooks.secret_screen` writes it again). Decides nothing about
what a secret is: a true answer only means the redactor must look.
"""

from __future__ import annotations

# Generated from the redactor's rules: looked for in the lower-cased text.
LOWER = ('7z', '_auth', 'api', 'authorization', 'bearer', 'key', 'ldap', 'lftp', 'login', 'machine', 'mongo', 'mosquitto_', 'mysql', 'ncftp', 'openssl', 'pass', 'rabbitmqctl', 'redis-cli', 'run(', 'secret', 'sig=', 'smbclient', 'sqlcmd', 'token', 'verifier', 'xfreerdp', 'zip')  # fmt: skip
# Generated from the redactor's rules: looked for as written.
EXACT = ('"d', '---- BEGIN SSH2', '-----BEGIN', '-u', '.atlasv1.', '1//0', '://', ':AA', '<P>', 'AGE-', 'AIza', 'AKCp', 'AT', 'EAA', 'FLWPUBK-', 'FLWPUBK_TEST-', 'FLWSECK-', 'FLWSECK_TEST-', 'GOCSPX-', 'HRKU-', 'IA', 'LTAI', 'MII', 'NRAK-', 'NRII-', 'NRJS-', 'PMAK-', 'Private-', 'Q~', 'SG.', 'SK', 'access_', 'b3BlbnNzaC1rZXktdjE', 'bkua_', 'dckr_', 'ddp_', 'ddw_', 'doo_', 'dop_', 'dor_', 'dp.', 'eyJ', 'fc-', 'figd_', 'fo1_', 'gho_', 'ghp_', 'ghr_', 'ghs_', 'ghu_', 'github_', 'glagent-', 'glc_', 'glcbt-', 'gldt-', 'glft-', 'glimt-', 'gloas-', 'glptt-', 'glrt-', 'glrtr-', 'glsa_', 'glsoat-', 'hf_', 'hvb.', 'hvr.', 'hvs.', 'lin_', 'lsv2_', 'nfp_', 'npm_', 'ntn_', 'ops_', 'oy2', 'pat', 'pnb_', 'pnu_', 'pplx-', 'pscale_', 'pul-', 'pypi-', 'r8_', 're_', 'rk_', 'rnd_', 'rubygems_', 'sb_', 'sbp_', 'shpca_', 'shppa_', 'shpss_', 'sk-', 'sk.', 'sk_', 'sntrys_', 'sntryu_', 'sq0atp-', 'sq0csp-', 'tvly-', 'untrusted comment:', 'whsec_', 'xai-', 'xapp-', 'xoxa-', 'xoxb-', 'xoxe-', 'xoxo-', 'xoxp-', 'xoxr-', 'xoxs-', 'ya29.')  # fmt: skip
# end of generated part


def may_hold_secret(text: str) -> bool:
    """Whether the redactor could replace anything in `text` (false: it certainly cannot)."""
    if any(needle in text for needle in EXACT):
        return True
    low = text.lower()
    return any(needle in low for needle in LOWER)


def module_text(current: str) -> str:
    """This module's source with its generated part made from the redactor's rules."""
    from session_kit.redact import screen_needles

    lower, exact = screen_needles()
    head, _, rest = current.partition("# Generated from the redactor's rules: looked for in the lower-cased text.\n")
    _, _, tail = rest.partition("# end of generated part\n")
    return (
        head
        + "# Generated from the redactor's rules: looked for in the lower-cased text.\n"
        + f"LOWER = {lower!r}  # fmt: skip\n"
        + "# Generated from the redactor's rules: looked for as written.\n"
        + f"EXACT = {exact!r}  # fmt: skip\n"
        + "# end of generated part\n"
        + tail
    )


if __name__ == "__main__":
    with open(__file__, encoding="utf-8") as f:
        source = f.read()
    with open(__file__, "w", encoding="utf-8") as f:
        f.write(module_text(source))
