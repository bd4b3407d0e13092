"""What a ruleset may offer beyond the :class:`~fracas.engine.Ruleset` protocol, each
capability asked for with a fallback when the ruleset offers none.

A ruleset lists what it offers in its class attribute ``capabilities``: a mapping from a
capability's name to the object providing it, or to ``"module:attribute"``, imported
only when first asked for (policies bring NumPy; odds and sheets bring the dice layer
and pydantic). The floors above never import a ruleset: they ask.

==============  =====================  =================================================
name            protocol               fallback when absent
==============  =====================  =================================================
``odds``        :class:`Odds`          no odds line (:data:`NO_ODDS`)
``policies``    :class:`Policies`      the lab's baselines; "default" is random-legal
``carry``       :class:`Carry`         nothing carried but death, no XP
``sheets``      :class:`Sheets`        no campaign books: no characters in a ledger
``battlefield`` :class:`Battlefield`   no battlefield to edit
``rolls``       :class:`RollOwners`    the side its purpose names (:data:`NAMED_ROLLS`)
``posts``       :class:`ByPost`        no play by post
``stats``       :class:`LabStats`      standing unless dead, down or unconscious; 0 injuries
``commands``    :class:`Commands`      no commands of its own
==============  =====================  =================================================

>>> from fracas.engine.ruleset import Ruleset
>>> class Bare(Ruleset):  # doctest: +SKIP
...     capabilities = {"odds": "my_rules.odds:ODDS"}
>>> odds(object()) is NO_ODDS
True
>>> stats(object()).standing({"dead": True})
False
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, cast

from fracas.engine.actions import Action
from fracas.engine.errors import EngineError
from fracas.engine.odds import AttackOdds, NoOdds

if TYPE_CHECKING:
    from fracas.engine.encounter import Encounter

T = TypeVar("T")

__all__ = [
    "NAMED_ROLLS",
    "NAMES",
    "NO_ODDS",
    "Battlefield",
    "ByPost",
    "Carry",
    "Commands",
    "FieldCarry",
    "FieldKind",
    "Kernel",
    "LabStats",
    "ModelSheets",
    "NamedRolls",
    "Odds",
    "Outcome",
    "OwnKernel",
    "OwnPolicies",
    "Policies",
    "Policy",
    "RollOwners",
    "Sheets",
    "SideOdds",
    "Vocabulary",
    "ask",
    "battlefield",
    "carry",
    "commands",
    "made_once",
    "odds",
    "policies",
    "posts",
    "rolls",
    "sheets",
    "side_odds",
    "stats",
]

#: The capabilities a ruleset may offer, by name.
NAMES = (
    "odds",
    "policies",
    "carry",
    "sheets",
    "battlefield",
    "rolls",
    "posts",
    "stats",
    "commands",
)


@cache
def _load(where: str) -> Any:
    module, _, name = where.partition(":")
    found: Any = import_module(module)
    for part in name.split(".") if name else ():
        found = getattr(found, part)
    return found


def ask(ruleset: object, name: str) -> Any | None:
    """What ``ruleset`` offers for capability ``name``, or ``None`` (a ``"module:attribute"``
    is imported the first time it is asked for).

    >>> ask(object(), "odds") is None
    True
    """
    if name not in NAMES:
        raise EngineError(f"unknown capability {name!r}: known are {', '.join(NAMES)}")
    offered = getattr(type(ruleset), "capabilities", None) or {}
    found = offered.get(name)
    if isinstance(found, str):
        return _load(found)
    return found


# -- odds --------------------------------------------------------------------------------


class Odds(Protocol):
    """The odds of an attack before it is committed, for the game master's screen."""

    def attack_odds(self, encounter: Encounter[Any], action: Action) -> AttackOdds | NoOdds | None:
        """The exact odds of ``action`` in ``encounter`` (read, never changed: push on a
        copy); :class:`NoOdds` for an attack whose odds are not shown, with why; ``None``
        when ``action`` is no attack. :class:`ValueError` means the rules would refuse it."""
        ...


class SideOdds(Protocol):
    """What an :class:`Odds` may offer besides (optional): the odds a side may be shown of
    its own attack, read only from what that side sees (a player's page, where the game
    master turns odds on). Without it, a side is shown no odds."""

    def side_attack_odds(
        self, encounter: Encounter[Any], side: str, action: Action
    ) -> AttackOdds | NoOdds | None:
        """As :meth:`Odds.attack_odds`, for ``side``'s own attack; nothing hidden from
        ``side`` may move the result (:class:`NoOdds` where it would)."""
        ...


def side_odds(ruleset: object) -> SideOdds | None:
    """The ruleset's :class:`SideOdds`, or ``None`` (a side is shown no odds)."""
    found = ask(ruleset, "odds")
    return cast(SideOdds, found) if hasattr(found, "side_attack_odds") else None


class _NoOdds:
    def attack_odds(self, encounter: Encounter[Any], action: Action) -> None:
        return None


#: The fallback: no odds for anything.
NO_ODDS: Odds = _NoOdds()


def odds(ruleset: object) -> Odds:
    """The ruleset's :class:`Odds`, or :data:`NO_ODDS`."""
    return cast(Odds, ask(ruleset, "odds") or NO_ODDS)


# -- policies ----------------------------------------------------------------------------


class Policy(Protocol):
    """Chooses one of ``legal`` from ``view`` (the acting side's); any chance comes from
    ``rng`` (a NumPy generator)."""

    name: str

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Any) -> Action: ...


@dataclass(frozen=True)
class Vocabulary:
    """What the lab's baseline policies need to know of a ruleset's verbs: which attack,
    approach, defend, end a turn, and move the encounter on."""

    attacks: tuple[str, ...] = ("attack",)
    approach: tuple[str, ...] = ("move",)
    defences: tuple[str, ...] = ()
    finish: tuple[str, ...] = ("end", "pass", "done")
    begin: tuple[str, ...] = ("begin",)
    approach_foe: bool = False  # a move names the foe approached (not a place)
    never: tuple[tuple[str, str], ...] = ()  # options the baselines leave alone
    recover: str | None = None  # the verb that rests, taken when tired
    tired: tuple[str, int] | None = None  # own view's field and the value that is tired


@dataclass(frozen=True)
class Outcome:
    """How one simulated fight ended (what the lab counts, and a kernel returns)."""

    winner: str | None  # the side left standing, None for a draw or no result
    rounds: int  # rounds played (the state's round counter where it has one)
    hp_left: dict[str, int]  # combatant id -> hit points (or the ruleset's equivalent)
    injuries: dict[str, int]  # combatant id -> number of injuries / wounds
    actions: int  # actions pushed
    capped: bool  # stopped by the action cap, not by the rules


class Kernel(Protocol):
    """A fast, exact mirror of the full rules for some fights (a lab engine)."""

    @property
    def policies(self) -> Collection[str]:
        """The policies it mirrors: every side must play one of them for it to apply."""
        ...

    def why_not(self, setup: Mapping[str, Any], policies: Mapping[str, str]) -> str | None:
        """The first reason the kernel cannot play this fight, or ``None``."""
        ...

    def simulate(
        self,
        setup: Mapping[str, Any],
        seeds: Sequence[Any],
        max_actions: int,
        policies: Mapping[str, str],
    ) -> list[Outcome]:
        """One :class:`Outcome` per seed (a NumPy ``SeedSequence``), as the engine's
        playouts would give them with ``policies`` (by side, or by combatant id)."""
        ...


class Policies(Protocol):
    """The ruleset's policies for simulations, and the verbs the baselines read."""

    vocabulary: Vocabulary

    def named(self) -> Mapping[str, Callable[[], Policy]]:
        """The ruleset's own policies by name (``"default"`` among them, when it has one),
        each a factory of fresh policies."""
        ...

    def gm(self) -> Policy | None:
        """The game master's policy, or ``None`` for the lab's (moves the encounter on)."""
        ...

    def kernel(self) -> Kernel | None:
        """A fast engine for some fights, or ``None``."""
        ...


def made_once(
    kept: dict[str, T],
    ruleset_id: str,
    setup: Mapping[str, Any],
    policies: Mapping[str, str] | None,
    make: Callable[[], T],
) -> T:
    """``make()`` for a kernel's setup and policies, kept in ``kept`` by them (as JSON;
    a few at most): what a setup fixes, worked out once a process, not once a batch.

    >>> kept: dict[str, list[int]] = {}
    >>> made_once(kept, "r", {"a": 1}, None, lambda: [1]) is made_once(
    ...     kept, "r", {"a": 1}, None, lambda: [2])
    True
    """
    chosen = None if policies is None else dict(policies)
    key = json.dumps([ruleset_id, setup, chosen], sort_keys=True, default=str)
    found = kept.get(key)
    if found is None:
        found = make()
        if len(kept) >= KEPT_SETUPS:
            kept.clear()
        kept[key] = found
    return found


#: The setups a kernel keeps what it made of (:func:`made_once`).
KEPT_SETUPS = 8


@dataclass(frozen=True)
class OwnKernel:
    """A :class:`Kernel` from its parts: the ruleset it plays, the policies it mirrors,
    and its module's functions of the ruleset id (which answer for that id alone).

    >>> kernel = OwnKernel("heimr", ("melee",), lambda r, s, p: f"{r} says no", lambda *a: [])
    >>> kernel.why_not({}, {}), kernel.simulate({}, [])
    ('heimr says no', [])
    """

    ruleset: str
    policies: tuple[str, ...]
    why_not_of: Callable[[str, Mapping[str, Any], Mapping[str, str]], str | None]
    simulate_of: Callable[
        [str, Mapping[str, Any], Sequence[Any], int, Mapping[str, str] | None], list[Outcome]
    ]

    def why_not(self, setup: Mapping[str, Any], policies: Mapping[str, str]) -> str | None:
        return self.why_not_of(self.ruleset, setup, policies)

    def simulate(
        self,
        setup: Mapping[str, Any],
        seeds: Sequence[Any],
        max_actions: int = 2000,
        policies: Mapping[str, str] | None = None,
    ) -> list[Outcome]:
        """``policies`` ``None``: every side plays the first policy it mirrors."""
        return self.simulate_of(self.ruleset, setup, seeds, max_actions, policies)


@dataclass(frozen=True)
class OwnPolicies:
    """A :class:`Policies` from its parts: the verbs, the named policies' factories
    (``"default"`` among them), the game master's and the kernel's, when there are.

    >>> OwnPolicies(Vocabulary(attacks=("hit",))).named()
    {}
    """

    vocabulary: Vocabulary
    policies: Mapping[str, Callable[[], Policy]] = field(default_factory=dict)
    gm_policy: Callable[[], Policy] | None = None
    kernel_of: Callable[[], Kernel | None] | None = None

    def named(self) -> Mapping[str, Callable[[], Policy]]:
        return self.policies

    def gm(self) -> Policy | None:
        return self.gm_policy() if self.gm_policy is not None else None

    def kernel(self) -> Kernel | None:
        return self.kernel_of() if self.kernel_of is not None else None


@dataclass(frozen=True)
class _NoPolicies:
    vocabulary: Vocabulary = field(default_factory=Vocabulary)

    def named(self) -> Mapping[str, Callable[[], Policy]]:
        return {}

    def gm(self) -> Policy | None:
        return None

    def kernel(self) -> Kernel | None:
        return None


def policies(ruleset: object) -> Policies:
    """The ruleset's :class:`Policies`, or none of its own (the baselines' verbs)."""
    return cast(Policies, ask(ruleset, "policies") or _NoPolicies())


# -- carry: the books --------------------------------------------------------------------


class Carry(Protocol):
    """What a character carries out of an encounter into the next, as the fields of an
    encounter file's combatant (so the next encounter starts from it)."""

    #: The combatant fields a carried condition may set (``dead`` is everyone's).
    fields: tuple[str, ...]

    def carried(self, start: Any, end: Any) -> dict[str, Any]:
        """The fields of a combatant as it ended (``end``) that differ from how it
        started (``start``); both are the ruleset's own combatants."""
        ...

    def xp_gained(
        self, fresh: Any, final: Any, keys: Mapping[str, str]
    ) -> tuple[dict[str, int], dict[str, int]]:
        """The XP each character (by key) gained in the encounter, and any left over per
        group."""
        ...


class _NoCarry:
    fields: tuple[str, ...] = ()

    def carried(self, start: Any, end: Any) -> dict[str, Any]:
        return {}

    def xp_gained(
        self, fresh: Any, final: Any, keys: Mapping[str, str]
    ) -> tuple[dict[str, int], dict[str, int]]:
        return {}, {}


class FieldCarry:
    """A :class:`Carry` that compares named attributes of the ruleset's combatants:
    ``fields`` maps each encounter file field to the combatant's attribute (``{"hit_points":
    "hp"}``). A ruleset extends :meth:`carried` for what is not a plain attribute.

    >>> from types import SimpleNamespace as C
    >>> FieldCarry({"hit_points": "hp"}).carried(C(hp=9), C(hp=4))
    {'hit_points': 4}
    """

    def __init__(self, fields: Mapping[str, str]) -> None:
        self.attributes = dict(fields)
        self.fields: tuple[str, ...] = tuple(fields)

    def carried(self, start: Any, end: Any) -> dict[str, Any]:
        return {
            name: getattr(end, attr)
            for name, attr in self.attributes.items()
            if getattr(end, attr) != getattr(start, attr)
        }

    def xp_gained(
        self, fresh: Any, final: Any, keys: Mapping[str, str]
    ) -> tuple[dict[str, int], dict[str, int]]:
        return {}, {}


def carry(ruleset: object) -> Carry:
    """The ruleset's :class:`Carry`, or one that carries nothing (death aside)."""
    return cast(Carry, ask(ruleset, "carry") or _NoCarry())


# -- sheets: the schema of characters and combatants -------------------------------------


class Sheets(Protocol):
    """A ruleset's character sheet, campaign and combatant models (pydantic), whose
    fields carry their bounds (``Field(ge=…, le=…)``, in their JSON Schema): the library,
    the web forms, YAML files and saves all read them."""

    campaign_model: type[Any]
    sheet_model: type[Any]
    #: An encounter file's combatant (``None``: the ruleset reads combatants its own way).
    placement_model: type[Any] | None
    #: The combatant field saying where it stands (``None``: nowhere in particular).
    place_key: str | None

    def package_data(self) -> Mapping[str, Any]:
        """The campaign data the ruleset ships (tables, weapons), laid under a campaign's."""
        ...

    # What the ledger may also ask, each optional (absent: the ledger refuses the entry):
    # ``creates_by_points: bool`` (a new character is made with creation points: the
    # ``create`` entry); ``awards_xp: bool`` and ``divide_xp(xp, present, leftover) ->
    # (each, remainder)`` (an XP award, divided among a group when offered);
    # ``sheet_warnings(campaign, sheet) -> list[str]`` (raise ValueError to refuse);
    # ``points: Mapping[str, int | None]`` (what may be spent and restored between fights,
    # and its most); ``raise_statistic(campaign, sheet_data, statistic, points) ->
    # (sheet_data, statistic, to, cost)``; ``permits: bool`` (the DM's permission entry).
    # Training an ability is the campaign model's own ``train`` method, when it has one.


@dataclass(frozen=True)
class ModelSheets:
    """A :class:`Sheets` from its parts (a ruleset subclasses it for the ledger's extras)."""

    campaign_model: type[Any]
    sheet_model: type[Any]
    package: Callable[[], Any]
    placement_model: type[Any] | None = None
    place_key: str | None = None

    def package_data(self) -> Mapping[str, Any]:
        found = self.package()
        data = getattr(found, "data", found)  # a YAML document, or its mapping
        return cast(Mapping[str, Any], data)


def sheets(ruleset: object) -> Sheets | None:
    """The ruleset's :class:`Sheets`, or ``None`` (it keeps no books)."""
    return cast("Sheets | None", ask(ruleset, "sheets"))


# -- battlefield -------------------------------------------------------------------------


class Battlefield(Protocol):
    """A ruleset's battlefield as an encounter file writes it, for the library's editor."""

    shape: Literal["grid", "places", "line"]
    keys: Mapping[str, Any]  # encounter file key -> its type (for the file's model)
    default: Mapping[str, Any]  # what a new battlefield holds
    place_word: str  # what one location is called ("square", "position")
    place_fields: tuple[str, ...]  # a place's own fields besides its borders
    notes: str
    guarded: bool  # whether borders between places may block (carry ``blocks``)
    aliases: Mapping[str, str]  # other names an encounter file may give a key

    def choices(self, campaign: Mapping[str, Any] | None) -> dict[str, list[str]]:
        """What each field of a place or border may hold, from the campaign's tables."""
        ...

    # A grid may also offer ``grid_view(document, campaign) -> dict`` (its squares and
    # borders as a map's JSON, to draw it in the editor).


@dataclass(frozen=True)
class FieldKind:
    """A :class:`Battlefield` from its parts; ``fixed`` are choices that need no campaign
    (a ruleset whose choices come from its tables overrides :meth:`choices`)."""

    shape: Literal["grid", "places", "line"]
    keys: Mapping[str, Any]
    default: Mapping[str, Any]
    place_word: str = "square"
    place_fields: tuple[str, ...] = ()
    notes: str = ""
    guarded: bool = False
    #: Other names an encounter file may give a key (``{"grid": "battlefield"}``).
    aliases: Mapping[str, str] = field(default_factory=dict)
    fixed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def choices(self, campaign: Mapping[str, Any] | None) -> dict[str, list[str]]:
        return {name: list(values) for name, values in self.fixed.items()}


def battlefield(ruleset: object) -> Battlefield | None:
    """The ruleset's :class:`Battlefield`, or ``None`` (its encounters have no ground)."""
    return cast("Battlefield | None", ask(ruleset, "battlefield"))


# -- rolls: who owns each roll ------------------------------------------------------------


class RollOwners(Protocol):
    """Which side owns each roll an action asks for: the side of the combatant who rolls
    (the defender's side for a defence roll), so that a table asks that side's player for
    the faces of physical dice, and no other side."""

    def owner(self, seen: Mapping[str, Any], action: Action, purpose: str) -> str | None:
        """The side rolling for ``purpose`` (the dice source's purpose text) while
        ``action`` is carried out, ``seen`` being the game master's observation of the
        state; ``None`` for the game master."""
        ...


@dataclass(frozen=True)
class NamedRolls:
    """The roller is the combatant whose name opens the roll's purpose (``Orc attacks
    Darna``, ``Orc's damage``, ``Rook: ATT (weapon)``), the longest name first, or else
    the side whose name opens it (``orcs's initiative``); a purpose that opens with one
    of ``referee`` or names neither is the game master's.

    >>> seen = {"combatants": {"orc": {"name": "Orc", "side": "orcs"},
    ...                        "orcb": {"name": "Orc Boss", "side": "boss"}}}
    >>> rolls = NamedRolls(referee=("surprise roll",))
    >>> act = Action.parse("darna attack orc")
    >>> [rolls.owner(seen, act, p) for p in ("Orc attacks Darna", "Orc Boss's damage",
    ...     "orcs's initiative", "surprise roll for orcs", "Orcish luck")]
    ['orcs', 'boss', 'orcs', None, None]
    """

    referee: tuple[str, ...] = ()

    def owner(self, seen: Mapping[str, Any], action: Action, purpose: str) -> str | None:
        if purpose.startswith(self.referee) and self.referee:
            return None
        people = seen.get("combatants") or {}
        found: tuple[int, str | None] = (0, None)
        for key, person in people.items() if isinstance(people, Mapping) else ():
            if not isinstance(person, Mapping):
                continue
            name, side = str(person.get("name") or key), person.get("side")
            if len(name) > found[0] and side is not None and _opens(purpose, name):
                found = (len(name), str(side))
        if found[1] is not None:
            return found[1]
        for side in _sides_of(people):
            if _opens(purpose, str(side)):
                return str(side)
        return None


def _opens(purpose: str, name: str) -> bool:
    """Whether ``purpose`` opens with the word(s) ``name``."""
    if not name or not purpose.startswith(name):
        return False
    rest = purpose[len(name) :]
    return not rest or not (rest[0].isalnum() or rest[0] == "_")


def _sides_of(people: Any) -> list[str]:
    if not isinstance(people, Mapping):
        return []
    found = {str(p.get("side")) for p in people.values() if isinstance(p, Mapping)}
    return sorted(found - {"None"})


#: Rolls owned by the combatant (or side) their purpose names: what most rulesets offer.
NAMED_ROLLS = NamedRolls()


def rolls(ruleset: object) -> RollOwners:
    """The ruleset's :class:`RollOwners`, or :data:`NAMED_ROLLS`."""
    return cast(RollOwners, ask(ruleset, "rolls") or NAMED_ROLLS)


# -- play by post ------------------------------------------------------------------------


@dataclass(frozen=True)
class ByPost:
    """How a ruleset plays by post: the game master's actions that open the first round
    and close one, the verb that finishes a character's post, and what "defend" means."""

    open: str
    close: str
    done: str
    defend: tuple[str, ...]


def posts(ruleset: object) -> ByPost | None:
    """The ruleset's :class:`ByPost`, or ``None`` (it is not played by post)."""
    return cast("ByPost | None", ask(ruleset, "posts"))


# -- the lab's statistics ----------------------------------------------------------------


class LabStats(Protocol):
    """How the lab reads the end of a fight from the game master's view of a combatant."""

    def standing(self, seen: Mapping[str, Any]) -> bool:
        """Whether the combatant is still in the fight."""
        ...

    def injuries(self, seen: Mapping[str, Any]) -> int:
        """How many lasting injuries it took."""
        ...


class PlainStats:
    def standing(self, seen: Mapping[str, Any]) -> bool:
        return not (seen.get("dead") or seen.get("unconscious") or seen.get("down"))

    def injuries(self, seen: Mapping[str, Any]) -> int:
        return 0


#: The fallback statistics (and the base a ruleset's own may extend).
PLAIN_STATS: LabStats = PlainStats()


def stats(ruleset: object) -> LabStats:
    """The ruleset's :class:`LabStats`, or :data:`PLAIN_STATS`."""
    return cast(LabStats, ask(ruleset, "stats") or PLAIN_STATS)


# -- commands ----------------------------------------------------------------------------


class Commands(Protocol):
    """A ruleset's own commands for the ``fracas`` command line."""

    def odds(self, args: Sequence[str]) -> list[AttackOdds]:
        """``fracas odds <ruleset> attack ARGS``: the lines of odds from numbers alone
        (raise :class:`ValueError` with a one-line message for bad numbers)."""
        ...

    def typer_commands(self) -> Sequence[Any]:
        """Typer apps or commands to add to ``fracas`` (each a ``typer.Typer``)."""
        ...


def commands(ruleset: object) -> Commands | None:
    """The ruleset's :class:`Commands`, or ``None``."""
    return cast("Commands | None", ask(ruleset, "commands"))
