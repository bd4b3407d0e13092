"""What a rule system gives the engine. The engine itself knows no rules.

A ruleset builds the starting state from a setup, proposes candidate actions,
checks and applies them, says whose turn it is and what a side may observe.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Hashable, Iterator, Mapping
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from mypy_extensions import mypyc_attr

from fracas.engine.abcs import own_isinstance_cache
from fracas.engine.actions import Action
from fracas.engine.dicesource import DiceSource
from fracas.engine.errors import EngineError
from fracas.engine.events import Event
from fracas.yamlfile import KeyPath, YamlDocument


class State(Protocol):
    """A ruleset's state: comparable, and cheap to clone for the undo stack."""

    def clone(self) -> Self: ...

    def __eq__(self, other: object) -> bool: ...


S = TypeVar("S", bound=State)


@mypyc_attr(allow_interpreted_subclasses=True)
class Ruleset(ABC, Generic[S]):
    """The rules of one system, registered by :attr:`id` in :mod:`fracas.rules` (through
    the ``fracas.rulesets`` entry points of its distribution).

    What it offers beyond this protocol (odds, policies, carry, sheets…) it lists in
    :attr:`capabilities`, asked through :mod:`fracas.engine.capabilities`."""

    id: ClassVar[str]
    name: ClassVar[str]
    #: The rules' version (``major.minor…``); empty: its distribution's version.
    version: ClassVar[str] = ""
    #: Capability name -> the object offering it, or ``"module:attribute"`` (imported when
    #: first asked for): see :mod:`fracas.engine.capabilities`.
    capabilities: ClassVar[Mapping[str, object]] = {}

    @abstractmethod
    def start(self, setup: Mapping[str, Any]) -> S:
        """The state before the first action, from a setup (characters, sides, field)."""

    @abstractmethod
    def candidates(self, state: S, actor: str | None) -> Iterator[Action]:
        """Actions worth offering ``actor`` (everyone when ``None``); legality is checked apart."""

    @abstractmethod
    def check(self, state: S, action: Action) -> None:
        """Raise :class:`~fracas.engine.errors.IllegalAction` unless ``action`` is legal now."""

    def is_legal(self, state: S, action: Action) -> bool:
        """Whether :meth:`check` accepts ``action``; rulesets override it where they can
        answer without building the refusal's message."""
        try:
            self.check(state, action)
        except EngineError:
            return False
        return True

    def proposed(
        self, state: S, actor: str | None, verbs: Collection[str] | None
    ) -> Iterator[Action]:
        """The candidates :meth:`legal` checks: :meth:`candidates`, unless a ruleset can
        leave out those of other actors and verbs before building them (it may still give
        some: :meth:`legal` filters); in the order :meth:`candidates` gives them."""
        return iter(self.candidates(state, actor))

    def legal(
        self, state: S, actor: str | None, verbs: Collection[str] | None = None
    ) -> Iterator[Action]:
        """The candidates of ``actor`` (everyone's when ``None``) that :meth:`check`
        accepts, only those with one of ``verbs`` when given. Rulesets override it (or
        :meth:`proposed`) to skip work shared by the candidates; the answer must stay the
        same."""
        for action in self.proposed(state, actor, verbs):
            if (
                (actor is None or action.actor == actor)
                and (verbs is None or action.verb in verbs)
                and self.is_legal(state, action)
            ):
                yield action

    def legal_where(
        self,
        state: S,
        actor: str | None,
        verbs: Collection[str] | None,
        keep: Callable[[Action], bool],
    ) -> Iterator[Action]:
        """The actions :meth:`legal` gives that ``keep`` accepts, in its order. Rulesets
        override it to ask ``keep`` before checking a candidate; the answer must stay
        the same (``keep`` reads only the action)."""
        return (action for action in self.legal(state, actor, verbs) if keep(action))

    def checking(self, state: S) -> Checking[S]:
        """The legality questions of ``state`` while it does not change (a policy's one
        choice asks several). Rulesets override it to work out once what the answers
        share; each answer must stay the one :meth:`legal`, :meth:`legal_where` and
        :meth:`is_legal` give."""
        return Checking(self, state)

    @abstractmethod
    def apply(self, state: S, action: Action, dice: DiceSource) -> list[Event]:
        """Carry out a legal ``action`` on ``state`` (changing it) and return what happened."""

    @abstractmethod
    def to_move(self, state: S) -> str | None:
        """Who acts now, or ``None`` when nobody is waited for (or the encounter is over)."""

    @abstractmethod
    def observe(self, state: S, side: str | None) -> dict[str, Any]:
        """What ``side`` may know of ``state``; ``None`` is the game master, who sees all."""

    def observe_lazily(self, state: S, side: str | None) -> Mapping[str, Any]:
        """What :meth:`observe` gives, as a mapping that may work out each part only when
        it is read (for a policy that reads a few fields); by default :meth:`observe`."""
        return self.observe(state, side)

    def combatant_ids(self, state: S) -> list[str]:
        """Everyone in the encounter, by id; by default those the game master sees."""
        return list(self.observe(state, None).get("combatants", {}))

    def sides(self, state: S) -> list[str]:
        """The sides of the encounter, in order of first appearance among the combatants."""
        combatants = self.observe(state, None).get("combatants", {})
        return list(dict.fromkeys(str(c["side"]) for c in combatants.values()))

    def check_campaign(self, document: YamlDocument) -> None:
        """Check a campaign file on its own, so that its mistakes are named by its file
        and line (:class:`~fracas.yamlfile.CampaignError`); by default nothing to check."""
        return None

    def setup_problems(self, setup: Mapping[str, Any]) -> list[tuple[KeyPath, str]]:
        """Every mistake in a setup, each at its path (``("combatants", 2, "square")``), so
        that an encounter file can name its line; by default the first that
        :meth:`start` meets, at the top."""
        try:
            self.start(setup)
        except EngineError as err:
            return [((), str(err))]
        return []

    def is_over(self, state: S) -> bool:
        """Whether the encounter has ended."""
        return False

    def verb_names(self, state: S) -> list[str]:
        """Every verb an action may use, for reading what people type; by default the
        verbs of the actions proposed now."""
        return sorted({a.verb for a in self.candidates(state, None)})

    # -- outcomes (optional: the defaults know nothing of the state) -----------------------

    def winner(self, state: S) -> str | None:
        """The side that won; ``None`` while the encounter goes on, or for a draw or no
        result (everyone down, or the game master ended it with several standing)."""
        return None

    def harm(self, state: S) -> Hashable:
        """A fingerprint of every combatant's health: it changes exactly when someone is
        harmed or healed (the table service tells a stalled fight by it)."""
        return None

    def round_number(self, state: S) -> int:
        """The round under way (0 before the first)."""
        return 0

    def why_no_actions(self, state: S, actor: str) -> str | None:
        """Why ``actor``, whose turn it is, may do nothing but end it (a sentence naming
        the rule), or ``None`` when it may act or the ruleset gives no reason."""
        return None


@mypyc_attr(allow_interpreted_subclasses=True)
class Checking(Generic[S]):
    """The legality questions of one state, asked while it does not change: by default
    each asked of the ruleset afresh (:meth:`Ruleset.checking`)."""

    __slots__ = ("ruleset", "state")

    def __init__(self, ruleset: Ruleset[S], state: S) -> None:
        self.ruleset = ruleset
        self.state = state

    def legal(self, actor: str | None, verbs: Collection[str] | None = None) -> Iterator[Action]:
        """:meth:`Ruleset.legal` of the state."""
        return self.ruleset.legal(self.state, actor, verbs)

    def legal_where(
        self, actor: str | None, verbs: Collection[str] | None, keep: Callable[[Action], bool]
    ) -> Iterator[Action]:
        """:meth:`Ruleset.legal_where` of the state."""
        return self.ruleset.legal_where(self.state, actor, verbs, keep)

    def is_legal(self, action: Action) -> bool:
        """:meth:`Ruleset.is_legal` of the state."""
        return self.ruleset.is_legal(self.state, action)

    def any_legal(self, actor: str) -> bool:
        """Whether ``actor`` has any legal action: the first of :meth:`legal`, unless a
        ruleset can tell in one question."""
        return any(True for _ in self.legal(actor))


@mypyc_attr(allow_interpreted_subclasses=True)
class Parts(Mapping[str, Any]):
    """A mapping whose values are worked out when first read: ``parts`` maps each key to
    the function giving its value, called with ``args`` (what
    :meth:`Ruleset.observe_lazily` may return).

    >>> seen = Parts({"round": lambda n: n, "big": lambda n: n / 0}, 3)
    >>> seen["round"], list(seen)
    (3, ['round', 'big'])
    """

    __slots__ = ("_args", "_got", "_parts")

    def __init__(self, parts: Mapping[str, Callable[..., Any]], *args: Any) -> None:
        self._parts = parts
        self._args = args
        self._got: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        got = self._got
        if key in got:  # no exception for a first read: each part is read once or twice
            return got[key]
        found = got[key] = self._parts[key](*self._args)
        return found

    def get(self, key: str, default: Any = None) -> Any:
        got = self._got
        if key in got:
            return got[key]
        part = self._parts.get(key)
        if part is None:
            return default
        found = got[key] = part(*self._args)
        return found

    def __contains__(self, key: object) -> bool:
        return key in self._parts

    def __iter__(self) -> Iterator[str]:
        return iter(self._parts)

    def __len__(self) -> int:
        return len(self._parts)


own_isinstance_cache(Parts)
