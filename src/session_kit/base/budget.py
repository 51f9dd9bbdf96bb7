"""Budget values: the one reading of what a person writes for a budget, and its words.
Standard library only, no `re`: the hooks that enforce budgets read it before every tool call.

Owns: `parse_budget` (a value from a variable or the config file to a `Budget` in tokens or
dollars, None for `off`, `BudgetProblem` with the reason for anything else), `human` (a budget
or an amount in its unit: `500k tokens`, `$5.00`) and the limits. Accepted: whole or decimal
token counts with an optional `k` or `m` (`2000`, `500k`, `1.5m`, `1_000_000`, `1,000,000`),
dollars with a `$` before or after (`$5`, `5.50$`, `$1,200`), a JSON number in the config file
(tokens), and `off` (also `none`, `no`). Refused, each with one sentence: zero, negative,
non-finite (`inf`, `nan`, `1e400`), past the limits, hex, a comma that is not a thousands
separator (`1,5m`), trailing words (`2k tokens`), and any other type. The readers warn once
and leave the value out (`state.budgets`). Does not know where budgets are set or enforce them.
"""

from __future__ import annotations

MAX_TOKENS = 10**15  # `usagefields.MAX_COUNT`: a count past it is no count
MAX_USD = 10**9
OFF_WORDS = ("off", "none", "no")
TOKENS, USD = "tokens", "usd"
SCALES = {"k": 1000, "m": 1_000_000}
EXAMPLES = "a number of tokens (2000, 500k, 2m), dollars ($5, 5.50$) or off"


class BudgetProblem(ValueError):
    """A value that is no budget; its text says why and what is accepted."""


class Budget:
    """A budget in `unit` (`TOKENS`, an int; `USD`, a float)."""

    __slots__ = ("amount", "unit")

    def __init__(self, amount: float, unit: str) -> None:
        self.amount = amount
        self.unit = unit

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Budget) and (self.amount, self.unit) == (other.amount, other.unit)

    def __hash__(self) -> int:
        return hash((self.amount, self.unit))

    def __repr__(self) -> str:
        return f"Budget({self.amount!r}, {self.unit!r})"

    def __str__(self) -> str:
        return human(self.amount, self.unit)

    def plus(self, other: Budget) -> Budget:
        """This budget raised by `other` (the same unit: BudgetProblem otherwise)."""
        if other.unit != self.unit:
            raise BudgetProblem(
                f"the budget is in {self.unit_word}, not {other.unit_word}: raise it by {self.unit_hint}"
            )
        total = self.amount + other.amount
        return Budget(int(total) if self.unit == TOKENS else round(total, 2), self.unit)

    @property
    def unit_word(self) -> str:
        return "dollars" if self.unit == USD else "tokens"

    @property
    def unit_hint(self) -> str:
        return "dollars ($2)" if self.unit == USD else "tokens (500k)"


def human(amount: float, unit: str) -> str:
    """`$5.00`, `$1,234.50`; `950 tokens`, `500k tokens`, `1.5M tokens`."""
    if unit == USD:
        return f"${amount:,.2f}"
    n = int(amount)
    if n < 1000:
        return f"{n:,} tokens"
    if n < 1_000_000:
        return f"{n / 1000:.1f}".removesuffix(".0") + "k tokens"
    return f"{n / 1_000_000:.2f}".rstrip("0").rstrip(".") + "M tokens"


def parse_budget(value: object, *, where: str, dollars: bool = True) -> Budget | None:
    """The budget `value` says (None: `off`); BudgetProblem naming `where` otherwise.
    `dollars=False`: only tokens are accepted (the budget per subagent)."""
    if isinstance(value, bool) or value is None:
        raise BudgetProblem(f"{where} = {value!r} is no budget: write {EXAMPLES}")
    if isinstance(value, (int, float)):
        return _checked(value, TOKENS, where, value)
    if not isinstance(value, str):
        raise BudgetProblem(f"{where} is a {type(value).__name__}, not a budget: write {EXAMPLES}")
    text = value.strip()
    low = text.lower()
    if low in OFF_WORDS:
        return None
    unit = TOKENS
    if low.startswith("$") or low.endswith("$"):
        unit = USD
        low = low[1:] if low.startswith("$") else low[:-1]
        low = low.strip()
    scale = 1
    if unit == TOKENS and low[-1:] in SCALES:
        scale = SCALES[low[-1]]
        low = low[:-1]
    number = _number(low)
    if number is None:
        raise BudgetProblem(f"{where} = {text[:40]!r} is no budget: write {EXAMPLES}")
    if unit == USD and not dollars:
        raise BudgetProblem(
            f"{where} = {text[:40]!r}: this budget is in tokens; write a number of tokens (2000, 500k, 2m)"
        )
    return _checked(number * scale, unit, where, text)


def _number(text: str) -> float | None:
    """A plain decimal number (digits, one point, `_` between digits, `,` between groups of
    three), else None: no sign, exponent, hex, `inf` or `nan`."""
    if not text:
        return None
    whole, point, fraction = text.partition(".")
    if point and not fraction.isdigit() or not fraction.isascii():
        return None
    if "," in whole:
        head, *groups = whole.split(",")
        if not (1 <= len(head) <= 3 and all(len(g) == 3 for g in groups)):
            return None
        whole = head + "".join(groups)
    if whole.startswith("_") or whole.endswith("_") or "__" in whole:
        return None
    whole = whole.replace("_", "")
    if not (whole.isdigit() and whole.isascii()):
        return None
    if len(whole) > 30:  # past every limit, and past what a float holds exactly
        return 1e30
    return float(whole + "." + fraction) if point else float(int(whole))


def _checked(amount: float, unit: str, where: str, shown: object) -> Budget:
    shown = repr(shown) if isinstance(shown, str) else str(shown)
    if amount != amount or amount in (float("inf"), float("-inf")):
        raise BudgetProblem(f"{where} = {shown[:40]} is not a finite number: write {EXAMPLES}")
    if amount <= 0:
        raise BudgetProblem(f"{where} = {shown[:40]} would deny everything: write a budget above 0, or off")
    limit = MAX_USD if unit == USD else MAX_TOKENS
    if amount > limit:
        raise BudgetProblem(
            f"{where} = {shown[:40]} is past the largest budget ({human(limit, unit)}): write off for none"
        )
    if unit == TOKENS:
        if amount < 1:
            raise BudgetProblem(f"{where} = {shown[:40]} is less than one token: write a budget above 0, or off")
        return Budget(int(amount), TOKENS)
    return Budget(round(float(amount), 2) or 0.01, USD)
