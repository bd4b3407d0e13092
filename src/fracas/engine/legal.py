"""The legal actions a policy is given, worked out a verb at a time as it asks.

A policy that looks for an attack, then a breather, then the end of the turn asks three
verbs and never pays for the other forty candidates; one that reads every action gets
them all, once. Either way it sees exactly the actor's legal actions.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Any, final, overload

from fracas.engine import Action, Encounter
from fracas.engine.abcs import own_isinstance_cache

__all__ = ["Legal", "action_of", "actor_of", "first_of", "one_of", "verb_of", "verb_where"]


@final
class Legal(Sequence[Action]):
    """The legal actions of ``actor`` in ``encounter``, listed lazily: for one choice,
    while the encounter does not change (what it has listed or checked is kept).

    Final: the helpers below, asked at every choice, know one by ``type(legal) is Legal``
    (a pointer comparison; ``isinstance`` of an ABC's subclass goes through its cache)."""

    __slots__ = (
        "_all",
        "_any",
        "_by_verb",
        "_checked",
        "_rules",
        "_together_listed",
        "actor",
        "encounter",
        "probes",
        "together",
    )

    def __init__(
        self,
        encounter: Encounter[Any],
        actor: str,
        together: Collection[str] = (),
        probes: Collection[str] = (),
    ) -> None:
        self.encounter = encounter
        self.actor = actor
        self.together = frozenset(together)
        #: Verbs whose plain action (no target, no options) is tried first when it is
        #: asked whether there is any legal action: one check, not a listing.
        self.probes = tuple(probes)
        self._by_verb: dict[str, list[Action]] = {}
        # Whether the verbs together are listed: those of them with no legal action are
        # then listed as empty, their empty lists made when first asked.
        self._together_listed = False
        self._all: list[Action] | None = None
        self._any: bool | None = None
        # Single actions asked of the rules, each by its :func:`_key`.
        self._checked: dict[str | tuple[str, str | None, tuple[tuple[str, str], ...]], bool] = {}
        # Every question asked of the rules here is of this one state: what the answers
        # share is worked out once (Ruleset.checking).
        self._rules = encounter.ruleset.checking(encounter.state)

    def verb(self, verb: str) -> list[Action]:
        """The legal actions with ``verb``, in the order the ruleset proposes them. The
        first asked of the verbs ``together`` brings them all in one listing (a policy
        that will look at each of them pays one turn check, not one a verb)."""
        by_verb = self._by_verb
        found = by_verb.get(verb)
        if found is not None:  # listed already (a policy asks a verb more than once)
            return found
        if self._all is not None:
            found = by_verb[verb] = [a for a in self._all if a.verb == verb]
            return found
        if verb in self.together:
            if not self._together_listed:
                self._together_listed = True
                for action in self._rules.legal(self.actor, self.together):
                    found = by_verb.get(action.verb)
                    if found is None:
                        by_verb[action.verb] = [action]
                    else:
                        found.append(action)
                found = by_verb.get(verb)
                if found is not None:
                    return found
            found = by_verb[verb] = []  # listed together: none
            return found
        found = by_verb[verb] = list(self._rules.legal(self.actor, (verb,)))
        return found

    def where(self, verb: str, keep: Callable[[Action], bool]) -> list[Action]:
        """The legal actions with ``verb`` that ``keep`` accepts, in the order of
        :meth:`verb`: when the verb is not listed yet, only the candidates ``keep``
        accepts are checked by the rules (a policy after a few of a dozen moves)."""
        if self._all is not None or verb in self._by_verb or verb in self.together:
            return [a for a in self.verb(verb) if keep(a)]
        found = list(self._rules.legal_where(self.actor, frozenset({verb}), keep))
        for action in found:
            self._checked[_key(action)] = True
        return found

    def first(self, verb: str) -> Action | None:
        """The first legal action with ``verb`` (as :meth:`verb` orders them), or
        ``None``: when the verb is not listed yet, its candidates are checked only up to
        the first the rules accept."""
        if self._all is not None or verb in self._by_verb or verb in self.together:
            found = self.verb(verb)
            return found[0] if found else None
        for action in self._rules.legal(self.actor, frozenset({verb})):
            self._checked[_key(action)] = True
            return action
        self._by_verb[verb] = []  # none at all: listed, as empty
        return None

    def one(self, action: Action) -> Action | None:
        """``action`` if it is legal, else ``None``: from what is listed when its verb is,
        else by the rules' check of that one action (cheaper than listing the verb's
        candidates, for a policy that knows the exact action it wants). Only the
        actor's own actions are among these."""
        if action.actor != self.actor:
            return None
        verb = action.verb
        if (
            self._all is not None
            or verb in self._by_verb
            or (self._together_listed and verb in self.together)
        ):  # its verb listed
            return action if self.listed(action) else None
        target, options = action.target, action.options
        key = verb if target is None and not options else (verb, target, options)  # _key
        checked = self._checked
        ok = checked.get(key)
        if ok is None:
            ok = checked[key] = self._rules.is_legal(action)
        return action if ok else None

    def plain(self, verb: str) -> bool:
        """Whether the actor's plain action with ``verb`` (no target, no options) is legal:
        :meth:`one` of it, asked by its verb (an answer kept is found without an action)."""
        ok = self._checked.get(verb)
        if ok is None:
            return self.one(action_of(self.actor, verb)) is not None
        return ok

    def _everything(self) -> list[Action]:
        if self._all is None:
            self._all = list(self._rules.legal(self.actor))
        return self._all

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        return self._everything()[index]

    def __len__(self) -> int:
        return len(self._everything())

    def __iter__(self) -> Iterator[Action]:
        return iter(self._everything())

    def __bool__(self) -> bool:
        if self._all is not None:
            return bool(self._all)
        if self._any is None:
            # What is listed or checked already may answer; else the rules' listing is
            # asked for its first legal action only.
            self._any = self._probed()
        return self._any

    def _probed(self) -> bool:
        """Whether there is any legal action (the answer of :meth:`__bool__`)."""
        for found in self._by_verb.values():
            if found:
                return True
        for ok in self._checked.values():
            if ok:
                return True
        actor, checked = self.actor, self._checked
        for verb in self.probes:  # one(Action(actor, verb)), asked in place
            known = checked.get(verb)
            if (
                known is None
                and verb not in self._by_verb
                and not (self._together_listed and verb in self.together)
            ):  # not listed
                known = checked[verb] = self._rules.is_legal(action_of(actor, verb))
            if known:
                return True
        return self._rules.any_legal(actor)

    def listed(self, action: object) -> bool:
        """Whether ``action`` is one of the legal actions listed so far (so it needs no
        second check before it is pushed)."""
        if self._all is not None:
            return action in self._all
        if not isinstance(action, Action) or action.actor != self.actor:
            return False  # (plain actions' answers are kept by verb: the actor's own)
        verb = action.verb
        found = self._by_verb.get(verb)
        if found:
            for listed in found:  # most often the very action listed: no comparison
                if listed is action:
                    return True
            if action in found:
                return True
        target, options = action.target, action.options
        key = verb if target is None and not options else (verb, target, options)  # _key
        return self._checked.get(key, False)

    def __contains__(self, action: object) -> bool:
        return (
            isinstance(action, Action)
            and action.actor == self.actor
            and self._rules.is_legal(action)
        )


own_isinstance_cache(Legal)


def _key(action: Action) -> str | tuple[str, str | None, tuple[tuple[str, str], ...]]:
    """What :class:`Legal` keeps the answer for ``action`` under, of one actor's: a plain
    action (no target, no options) by its verb, any other by its verb, target and options
    (hashed as a tuple, not through an action's own hash, worked out at each lookup).

    >>> _key(Action("ylva", "end")), _key(Action("ylva", "move", "C2"))
    ('end', ('move', 'C2', ()))
    """
    target, options = action.target, action.options
    return action.verb if target is None and not options else (action.verb, target, options)


#: The actions :func:`action_of` has made, by actor, verb and target.
_MADE: dict[tuple[str, str, str | None], Action] = {}


def action_of(actor: str, verb: str, target: str | None = None) -> Action:
    """``Action(actor, verb, target)``, made once: an action is a value, and a policy or
    a probe asks the same few of the rules at every choice.

    >>> action_of("e", "defend", "block") is action_of("e", "defend", "block")
    True
    """
    key = (actor, verb, target)
    found = _MADE.get(key)
    if found is None:
        if len(_MADE) > 4096:
            _MADE.clear()
        found = _MADE[key] = Action(actor, verb, target)
    return found


def verb_of(legal: Sequence[Action], verb: str) -> list[Action]:
    """The actions of ``legal`` with ``verb``: asked of a :class:`Legal` by verb.

    >>> verb_of([Action.parse("ylva end"), Action.parse("ylva attack astrid")], "end")
    [Action(actor='ylva', verb='end', target=None, options=())]
    """
    if type(legal) is Legal:
        return legal.verb(verb)
    return [a for a in legal if a.verb == verb]


def first_of(legal: Sequence[Action], verb: str) -> Action | None:
    """The first action of ``legal`` with ``verb``: asked of a :class:`Legal` so that its
    candidates are checked only up to the first legal one.

    >>> str(first_of([Action.parse("ylva end"), Action.parse("ylva move C2")], "move"))
    'ylva move C2'
    """
    if type(legal) is Legal:
        return legal.first(verb)
    return next((a for a in legal if a.verb == verb), None)


def verb_where(legal: Sequence[Action], verb: str, keep: Callable[[Action], bool]) -> list[Action]:
    """The actions of ``legal`` with ``verb`` that ``keep`` accepts: asked of a
    :class:`Legal` so that only those are checked by the rules.

    >>> legal = [Action.parse(t) for t in ("ylva move B1", "ylva move C2", "ylva end")]
    >>> [str(a) for a in verb_where(legal, "move", lambda a: a.target == "C2")]
    ['ylva move C2']
    """
    if type(legal) is Legal:
        return legal.where(verb, keep)
    return [a for a in legal if a.verb == verb and keep(a)]


def actor_of(legal: Sequence[Action]) -> str:
    """Whose actions these are (without listing a :class:`Legal`)."""
    return legal.actor if type(legal) is Legal else legal[0].actor


def one_of(legal: Sequence[Action], action: Action) -> Action | None:
    """``action`` if ``legal`` holds it: asked of a :class:`Legal` as one action.

    >>> one_of([Action.parse("ylva end")], Action.parse("ylva end"))
    Action(actor='ylva', verb='end', target=None, options=())
    """
    if type(legal) is Legal:
        return legal.one(action)
    return action if action in legal else None
