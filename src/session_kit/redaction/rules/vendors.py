"""Tokens with a vendor's prefix (cloud, VCS and CI, package registries, payment, chat, AI
providers, observability: the formats that gitleaks' rules and detect-secrets' plugins
describe), JWTs and webhook URLs.

Owns: `VENDOR_RULES`, applied after `formats.PEM_RULES` and before `formats.RULES`. Each rule
carries samples it must redact and texts it must leave (tests/redaction/test_samples.py).
Does not apply them (that is `redaction.engine`).
"""

from __future__ import annotations

from session_kit.redaction.rules.formats import Pattern, Rule


def _token(
    kind: str,
    pattern: str,
    *anchors: str,
    back: int = 0,
    group: int | str = 0,
    samples: tuple[str, ...] = (),
    not_samples: tuple[str, ...] = (),
) -> Rule:
    """A token with a vendor's fixed prefix (or infix): found by its anchors as written."""
    return Rule(
        kind, Pattern(pattern), anchors, back=back, exact=True, group=group, samples=samples, not_samples=not_samples
    )


_END = r"(?![A-Za-z0-9_-])"  # a token ends where its alphabet does


def _family(
    separator: str,
    *tokens: tuple[str, str | tuple[str, ...], str],
    samples: tuple[str, ...] = (),
    not_samples: tuple[str, ...] = (),
) -> Rule:
    """Tokens whose prefix ends just before `separator`, as (kind, prefix or prefixes, pattern
    from the prefix on). Each text is scanned once for the separator, not once per vendor (a
    scan costs about as much as the rest of redacting), and a pattern is tried only where the
    characters before the separator are one of the prefixes. A pattern that several prefixes
    share is one alternative of the family's regex, tried once."""
    alternatives = "|".join(f"(?P<t{i}>{pattern})" for i, (_, _, pattern) in enumerate(tokens))
    kinds = {f"t{i}": kind for i, (kind, _, _) in enumerate(tokens)}
    by_tail: dict[str, list[str]] = {}
    for _, prefixes, _ in tokens:
        for prefix in (prefixes,) if isinstance(prefixes, str) else prefixes:
            if prefix not in by_tail.setdefault(prefix[-2:], []):
                by_tail[prefix[-2:]].append(prefix)
    return Rule(
        "token",
        Pattern(r"(?<![A-Za-z0-9])(?:" + alternatives + ")"),
        (separator,),
        exact=True,
        kind_of=lambda match: kinds[match.lastgroup or ""],
        prefixes={tail: tuple(found) for tail, found in by_tail.items()},
        samples=samples,
        not_samples=not_samples,
    )


VENDOR_RULES: tuple[Rule, ...] = (
    # --- tokens with a vendor's prefix (gitleaks' and detect-secrets' formats) ---
    # Most are found through the separator after their prefix (`_`, `-`, `.`): one scan of the
    # text per separator instead of one per vendor (see `_family`).
    _family(
        "_",
        ("stripe-key", "sk", r"[sr]k_(?:live|test)_[A-Za-z0-9]{16,}"),
        ("stripe-key", "rk", r"rk_(?:live|test)_[A-Za-z0-9]{16,}"),
        ("stripe-webhook-secret", "whsec", r"whsec_[A-Za-z0-9+/=]{24,}"),
        ("github-token", ("ghp", "gho", "ghu", "ghs", "ghr"), r"gh[pousr]_[A-Za-z0-9]{30,}"),
        ("github-token", "github", r"github_pat_[A-Za-z0-9_]{22,}"),
        ("grafana-token", "glsa", r"glsa_[A-Za-z0-9_=+/-]{32,}"),
        ("grafana-token", "glc", r"glc_[A-Za-z0-9_=+/-]{32,}"),
        ("circleci-token", "CCIPAT", r"CCIPAT_[A-Za-z0-9]{20,}_[a-f0-9]{40}"),
        ("buildkite-token", "bkua", r"bkua_[a-f0-9]{40}"),
        ("npm-token", "npm", r"npm_[A-Za-z0-9]{36}" + _END),
        ("rubygems-key", "rubygems", r"rubygems_[a-f0-9]{48}"),
        ("docker-token", "dckr", r"dckr_pat_[A-Za-z0-9_-]{20,}"),
        ("digitalocean-token", ("dop", "doo", "dor"), r"do[por]_v1_[a-f0-9]{64}"),
        ("fly-token", "fo1", r"fo1_[A-Za-z0-9_-]{39,}"),
        ("supabase-token", "sbp", r"sbp_[a-f0-9]{40}"),
        ("braintree-token", "access", r"access_token\$production\$[0-9a-z]{16}\$[0-9a-f]{32}"),
        ("shopify-token", ("shpat", "shpss", "shpca", "shppa"), r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}"),
        ("huggingface-token", "hf", r"hf_[A-Za-z0-9]{34,}"),
        ("replicate-token", "r8", r"r8_[A-Za-z0-9]{37}"),
        ("groq-key", "gsk", r"gsk_[A-Za-z0-9]{48,}"),
        ("notion-token", "ntn", r"ntn_[A-Za-z0-9]{40,}"),
        ("notion-token", "secret", r"secret_[A-Za-z0-9]{43}" + _END),
        ("linear-key", "lin", r"lin_api_[A-Za-z0-9]{40}"),
        ("sentry-token", ("sntrys", "sntryu"), r"sntry[su]_[A-Za-z0-9_=+/-]{40,}"),
        ("langsmith-key", "lsv2", r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}"),
        ("render-key", "rnd", r"rnd_[A-Za-z0-9]{24,}" + _END),
        ("planetscale-token", "pscale", r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,}"),
        ("pinecone-key", "pcsk", r"pcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,}"),
        ("netlify-token", "nfp", r"nfp_[A-Za-z0-9]{36,}"),
        ("neon-key", "napi", r"napi_[a-z0-9]{64}"),
        ("figma-token", "figd", r"figd_[A-Za-z0-9_-]{38,}"),
        ("prefect-key", ("pnu", "pnb"), r"pn[ub]_[A-Za-z0-9]{36}"),
        ("deno-token", ("ddp", "ddw"), r"dd[pw]_[A-Za-z0-9]{36}"),
        ("supabase-key", "sb", r"sb_secret_[A-Za-z0-9_-]{20,}"),
        ("resend-key", "re", r"re_[A-Za-z0-9]{8}_[A-Za-z0-9]{20,}"),
        ("onepassword-token", "ops", r"ops_eyJ[A-Za-z0-9+/=_-]{60,}"),
        samples=(
            "CCIPAT_6pVqUe7rMq3Mgmg4m8lP3U_d2a5a77aca758082b0e32bd79851ad8e25fcfb7f",
            "dop_v1_72cb811ae9a55bf3b7a19093b14087b09ccea0496bb9d3e47ca97d027c6512bb",
            "client = Client(api_key='nfp_FLruKomcAfuHtnxyMlM3YwGiw04vOGDF2FOu7da8')",
        ),
        not_samples=("GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",),
    ),
    _family(
        "-",
        ("anthropic-api-key", "sk", r"sk-ant-[A-Za-z0-9_-]{16,}"),
        # an OpenAI key holds a digit (words joined by hyphens do not)
        ("openai-api-key", "sk", r"sk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z_-]{0,200}\d)[A-Za-z0-9_-]{20,}"),
        (
            "gitlab-token",
            tuple(
                "gl" + kind for kind in ("pat", "ptt", "rt", "dt", "ft", "cbt", "imt", "soat", "agent", "oas", "rtr")
            ),
            r"gl(?:pat|ptt|rt|dt|ft|cbt|imt|soat|agent|oas|rtr)-[A-Za-z0-9_-]{20,}",
        ),
        ("pypi-token", "pypi", r"pypi-AgE[A-Za-z0-9_-]{50,}"),
        ("postman-key", "PMAK", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
        ("pulumi-token", "pul", r"pul-[a-f0-9]{40}"),
        ("google-oauth-secret", "GOCSPX", r"GOCSPX-[A-Za-z0-9_-]{28}"),
        ("square-token", ("sq0atp", "sq0csp"), r"sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}"),
        (
            "flutterwave-key",
            ("FLWSECK", "FLWSECK_TEST", "FLWPUBK", "FLWPUBK_TEST"),
            r"FLW(?:SEC|PUB)K(?:_TEST)?-[a-hA-H0-9]{32}-X",
        ),
        ("slack-token", tuple("xox" + c for c in "abposre"), r"xox[abposre]-[A-Za-z0-9-]{10,}"),
        ("slack-token", "xapp", r"xapp-\d-[A-Za-z0-9-]{20,}"),
        ("newrelic-key", ("NRAK", "NRJS", "NRII"), r"NR(?:AK|JS|II)-[A-Z0-9]{20,}"),
        ("perplexity-key", "pplx", r"pplx-[A-Za-z0-9]{40,}"),
        ("mailgun-key", "key", r"key-[a-f0-9]{32}" + _END),
        ("tailscale-key", "tskey", r"tskey-[a-z]+-[A-Za-z0-9]{8,}-[A-Za-z0-9]{16,}"),
        ("firecrawl-key", "fc", r"fc-[a-f0-9]{32}" + _END),
        ("heroku-key", "HRKU", r"HRKU-[A-Za-z0-9_-]{20,}"),
        ("xai-key", "xai", r"xai-[A-Za-z0-9]{50,}"),
        ("cerebras-key", "csk", r"csk-[a-z0-9]{40,}"),
        ("tavily-key", "tvly", r"tvly-(?:dev-|prod-)?[A-Za-z0-9]{30,}"),
        ("hubspot-token", "pat", r"pat-(?:na|eu|ap)\d-[a-f0-9]{8}-[a-f0-9-]{27}"),
        samples=(
            "client = Client(api_key='pat-na1-28afaa00-976c-f748-2c17-fa2ed2248efa')",
            "SLACK_BOT=xoxb-1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
            "sk-ant-api03-Xk3j9dQ2mZp8vR7tY1uW4eN6bH0cL5aS-qwertyuiopASDFGH12-AA",
        ),
        not_samples=("SLACK_BOT_TOKEN=xoxb-xxxxxxxxxxxx-xxxxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx",),
    ),
    _family(
        ".",
        ("doppler-token", "dp", r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}"),
        ("vault-token", ("hvs", "hvb", "hvr"), r"hv[sbr]\.[A-Za-z0-9_-]{24,}"),
        ("google-oauth-token", "ya29", r"ya29\.[A-Za-z0-9_-]{30,}"),
        ("sendgrid-key", "SG", r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}"),
        ("mapbox-secret-token", "sk", r"sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}"),
        samples=(
            "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",
            "export MAPBOX_SECRET_KEY=sk.eyJ1IjoiRC9gTJyI89Pdecmfp0HubCGXyASSZJ.H4wl5B-UvFlKhIKTpFipI3",
            "dp.pt.PeXXPpFgdlPXRkiNpeDchZge0SX32dgE1CeM9MLnVW3",
        ),
        not_samples=("SG.wtsIsw6npUkCsG5x-v9h",),
    ),
    _token(
        "aws-access-key",
        r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA)[0-9A-Z]{16}(?![A-Za-z0-9])",
        "IA",
        back=2,
        samples=("[default]\naws_access_key_id = AKIAIOSFODNN7Q7ZK2MX\naws_secret_access_key = ",),
        not_samples=("AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX",),
    ),
    Rule(
        "aws-secret-key",
        Pattern(
            r"(?i)aws_?secret_?access_?key(?:[_-]?[A-Za-z0-9]{1,12})?\\*[\"']?\s*[:=]\s*\\*[\"']?(?P<v>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
        ),
        ("secret",),
        back=4,
        group="v",
        samples=("export AWS_SECRET_ACCESS_KEY=wpI6Mvww9SP3CafQOFkH5ZuX/EI9/iv+7Zr1SX+v",),
        not_samples=(
            "AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX\nAWS_SECRET_ACCESS_KEY=XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\n",
        ),
    ),
    _token(
        "alibaba-access-key",
        r"LTAI[A-Za-z0-9]{12,20}" + _END,
        "LTAI",
        samples=("AccessKeyId=LTAId1o5BusCNIB0b9Mn7kQ1",),
        not_samples=("AccessKeyId=LTAId1o5",),
    ),
    _token(
        "atlassian-token",
        r"(?:ATBB[A-Za-z0-9_=.-]{24,}|ATATT3[A-Za-z0-9_=-]{60,})",
        "AT",
        samples=("BITBUCKET_APP_PASSWORD ATBBUd5MniU1iGqo9z3AENPSui1FxRx60daW",),
        not_samples=("ATATT3xFfGF0CpfCW-L2cpOD4kAhIbh46yzzbix-MJiEhrbnW_WPJikAoYThTW34",),
    ),
    _token(
        "nuget-key",
        r"(?<![A-Za-z0-9])oy2[a-z0-9]{43}" + _END,
        "oy2",
        samples=("oy20l4i0oy5t07n1x635b5z9ovom1qstk5n1wuhgn5j1b5",),
        not_samples=("oy20l4i0oy5t07n",),
    ),
    _token(
        "artifactory-key",
        r"(?<![A-Za-z0-9])AKCp[A-Za-z0-9]{60,}",
        "AKCp",
        samples=("AKCp83AqnsiM8oMu8OXffn4MFczvsEmDyCAMWQKS35BmMTUm2pjoAmzAX0LSnENlvQOfWxvfa",),
        not_samples=("AKCp83AqnsiM8oMu8OXffn4M",),
    ),
    # found at its `api`, which the API-key headers need scanned anyway
    Rule(
        "databricks-token",
        Pattern(r"(?<![A-Za-z0-9])dapi[a-f0-9]{32}(?:-\d)?"),
        ("api",),
        back=1,
        samples=("DATABRICKS_TOKEN dapidcebda7ac10fe51e71f527356b51e74e",),
        not_samples=('curl "$HOST/api/2.0/clusters/list" -H "Authorization: Bearer $DATABRICKS_TOKEN"',),
    ),
    _token(
        "terraform-token",
        r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}",
        ".atlasv1.",
        back=14,
        samples=("ni03s71i615etu.atlasv1.j3r6Wi1-EuhuE1ZYGt5N50gYfWildZ3kxYcXv4sO4o9dZV866fFl4rz85wMN-I_NvIh",),
        not_samples=("ni03s71i615etu.atlasv1.j3r6Wi1",),
    ),
    _token(
        "google-api-key",
        r"AIza[0-9A-Za-z_-]{35}",
        "AIza",
        samples=("key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI&q=x",),
        not_samples=("key=AIzaSyDdI0hCZ&q=x",),
    ),
    _token(
        "google-oauth-token",
        r"1//0[A-Za-z0-9_-]{40,}",
        "1//0",
        samples=(
            "refresh: 1//0H9k1o09CYc46_1Mt5vD8_7ZM5cV7MxECVudehv1Nvzdv7OfFecs-6Tc1THctGfsEo8LSO2QL2hn9U-38TiuyPKza2f",
        ),
        not_samples=("refresh: 1//0H9k1o09CYc46_1Mt5vD8_7ZM5cV",),
    ),
    _token(
        "azure-client-secret",
        r"[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}",
        "Q~",
        back=4,
        samples=("AZURE_CLIENT_SECRET=Q8l8Q~~8Lh9LfUikT2eovqfD1gjMf0VQ-LXGXba7",),
        not_samples=("Azure client secrets have a Q~ at their fourth character",),
    ),
    _token(
        "square-token",
        r"(?<![A-Za-z0-9])EAAA[A-Za-z0-9_-]{60,}",
        "EAAA",
        samples=("EAAAAPpd_qXANvuBxDbRQAKZ5IyPhptz8SqMry3t1TLl-5vnICSypjvLdNZVpcW4",),
        not_samples=("EAAAAPpd_qXANvuBxDbRQ",),
    ),
    _token(
        "slack-webhook",
        r"https://hooks\.slack\.com/(?:services|triggers|workflows)/[A-Za-z0-9/_-]+",
        "://",
        back=5,
        samples=("https://hooks.slack.com/services/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",),
        not_samples=("https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",),
    ),
    _token(
        "discord-webhook",
        r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]+",
        "://",
        back=5,
        samples=(
            "https://discord.com/api/webhooks/979714763949149444/-XjfT4uMKH4Ik7I-AfngD5MmU1fCpUAmtLfzFL261jZNAEnLSIFK7_ylbKuwax8439d5",
        ),
        not_samples=("https://discord.com/api/webhooks/9797147",),
    ),
    _token(
        "telegram-bot-token",
        r"[\s\S]{0,12}?(?<![0-9])(?P<v>[0-9]{6,12}:AA[A-Za-z0-9_-]{30,})",
        ":AA",
        back=12,
        group="v",
        samples=('bot = telebot.TeleBot("0249031993:AAXL5fFzVnszZ20ByO5lC7U05mBKBu8whMD")',),
        not_samples=('bot = telebot.TeleBot("0249031993:AAXL")',),
    ),
    _token(
        "twilio-key",
        r"(?<![A-Za-z0-9])SK[0-9a-f]{32}" + _END,
        "SK",
        samples=("TWILIO_API_KEY=SK54b15b88d81650b8b90ff730122fb764",),
        not_samples=("Twilio API key SIDs are SK followed by 32 hex digits",),
    ),
    _token(
        "mailchimp-key",
        r"(?<![A-Za-z0-9])[a-f0-9]{32}-us\d{1,2}" + _END,
        "-u",
        back=32,
        samples=("MAILCHIMP_KEY 9c67d523623384bd4facb7a6c17c4d11-us12",),
        not_samples=("MAILCHIMP_SERVER_PREFIX=us12 (the key's own -us12 suffix)",),
    ),
    _token(
        "teams-webhook",
        r"https://[A-Za-z0-9-]+\.webhook\.office\.com/webhookb2/(?P<v>[^\s\"'<>\\\x00]+)",
        "://",
        back=5,
        group="v",
        samples=(
            "https://acme.webhook.office.com/webhookb2/185e791f-a78e-485c-b123-fc33d295ae69@1781d74c-87fb-4a35-8c59-220925bca5d7/IncomingWebhook/0fbd01f40072e3cf347862554017cdf8/1a61dbd0-e2a7-4a78-96d6-6e3a9927dcc3",
        ),
        not_samples=("https://acme.webhook.office.com/webhookb2/${TOKEN}",),
    ),
    _token(
        "airtable-token",
        r"(?<![A-Za-z0-9])pat[A-Za-z0-9]{14}\.[a-f0-9]{64}",
        "pat",
        samples=("patu9vcOhjTaFc9wr.8793952dc54558629f1f801eee8c2b4a0a1bf55c7b3d977614e25d3d53e1a7d1",),
        not_samples=("patu9vcOhjTaFc9wr.8793952dc",),
    ),
    _token(
        "jwt",
        r"(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}",
        "eyJ",
        samples=("curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl' x",),
        not_samples=("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzd",),
    ),
)
