"""A sound proof that a two-pack position can never be won: no tableau pile can be emptied.

``no_space_ever`` answers one question about a position of a game built down in suit
where a space takes any card (Josephine; Casket hard once its stock is out): can any
tableau pile ever be emptied? If not, the position is lost, since winning empties
every pile. The answer comes from a relaxation that lets the player do more than the
rules allow, so that every real line of play stays inside it:

- a card goes up once it can be reached and more copies of the card one rank below
  could be up than there are copies of this card on the foundations now (so a card
  whose one copy is up needs both copies below it); how many copies of a card could
  ever be up is capped, rank by rank, by the card below it;
- a card leaves its place, taking the cards above it along if they run down in suit
  from it, onto a copy of the card one rank above in suit that is ever uncovered in the
  tableau or that ever left its own place (it may have gone into the tableau);
- a card in a stack (a waste pile) can be reached once every card above it has left;
  an open card (the stock, a lid cell, a jewel) can be reached at any time, whatever
  the order the rules impose;
- a stock on its last pass may instead be given as a queue: its cards come onto the
  waste one at a time, in order, each only once nothing else is possible. Nothing the
  relaxation does is ever undone, so doing everything else first loses nothing, and at
  each real draw the relaxation has done at least what the real game had done: the
  cards it has left on the waste are some of the real waste's cards, in the same order;
- no space is ever used: the first space comes from the first pile emptied, so until
  then the real game is inside the relaxation.

Everything possible is done at once, in any order. If even so no pile empties, no real
line empties one either: the position is lost. ``docs/winnability.md`` argues each rule.

The test is only sound where cards never come back down off the foundations, where
nothing but stock cards is ever put on a waste pile, and where a card enters the
tableau only onto a card one rank above in suit or into a space: the callers check that.

This module must not know the engine, the search or any game's layout: it reads
foundation heights and piles of card numbers (``rank << 2 | suit``; bit 64, face down,
is ignored, as the solver sees every card).
"""

from __future__ import annotations

from collections.abc import Sequence


def no_space_ever(
    found: bytes,
    decks: int,
    piles: Sequence[bytes],
    stacks: Sequence[bytes],
    open_cards: bytes,
    queue: bytes = b"",
) -> bool:
    """True when no tableau pile can ever be emptied (and none is empty): a lost position.

    :param found: foundation heights, ``decks`` slots per suit (slot ``suit * decks + j``).
    :param piles: the tableau piles, bottom card first.
    :param stacks: piles whose cards are reached from the top down, one at a time and
        never built on (waste piles), bottom card first.
    :param open_cards: cards that may be reached at any time (stock, lid, jewels).
    :param queue: cards that come onto the first stack one at a time, in this order,
        and nowhere else (a stock on its last pass: each card drawn covers the waste).
        Everything else possible is done before each one comes.
    """
    for pile in piles:
        if not pile:
            return False
    # already[card]: copies of the card on the foundations now. up[card]: how many
    # copies could ever be up at once: no more than are up now plus the copies in play
    # found able to go up, and no more than of the card one rank below (``_raise``).
    already = [0] * 64
    for suit in range(4):
        for j in range(decks):
            for rank in range(1, found[suit * decks + j] + 1):
                already[(rank << 2) | suit] += 1
    up = list(already)
    # marked[card]: copies in play found able to go up.
    marked = [0] * 64
    # exposed[card]: whether a copy of the card is ever uncovered in the tableau or
    # loose. Never unset: a card that goes up later was a holder while it lay there.
    exposed = [False] * 64
    n_piles = len(piles)
    # tops[i]: the index of the highest card still in pile i (-1: emptied).
    tops = [len(pile) - 1 for pile in piles]
    for pile in piles:
        exposed[pile[-1] & 63] = True
    # The cards still in each stack, bottom first.
    stacks_left = [[card & 63 for card in stack] for stack in stacks]
    if queue and not stacks_left:
        raise ValueError("a queue needs a stack to come onto")
    queued = 0
    open_left = [card & 63 for card in open_cards]
    # Cards that left their place without going up: they may go up later.
    loose: list[int] = []
    changed = True
    while changed or queued < len(queue):
        if not changed:
            # Nothing more is possible before the next card comes: it covers the stack.
            stacks_left[0].append(queue[queued] & 63)
            queued += 1
        changed = False
        # Loose cards go up when a copy below is up for them.
        if loose:
            kept: list[int] = []
            for card in loose:
                if _may_go_up(up, already, card):
                    _raise(up, already, marked, card)
                    changed = True
                else:
                    kept.append(card)
            loose = kept
        # Open cards: up, or onto a card that holds them.
        if open_left:
            kept = []
            for card in open_left:
                if _leaves(card, up, already, marked, exposed, loose):
                    changed = True
                else:
                    kept.append(card)
            open_left = kept
        # Stacks: the top card goes up or onto a holder, uncovering the next.
        for stack in stacks_left:
            while stack and _leaves(stack[-1], up, already, marked, exposed, loose):
                stack.pop()
                changed = True
        # Tableau piles: the top card goes up, or the deepest card of the run on top
        # that has a holder goes onto it, with the cards above it.
        for i in range(n_piles):
            pile = piles[i]
            at = tops[i]
            while at >= 0:
                card = pile[at] & 63
                if _may_go_up(up, already, card):
                    _raise(up, already, marked, card)
                    at -= 1
                else:
                    base = -1
                    k = at
                    while True:
                        here = pile[k] & 63
                        if here >> 2 < 13 and exposed[here + 4]:
                            base = k
                        if k == 0:
                            break
                        below = pile[k - 1]
                        if below & 64 or below & 63 != here + 4:
                            break
                        k -= 1
                    if base < 0:
                        break
                    # The run from ``base`` up leaves; its cards become loose.
                    for m in range(base, at + 1):
                        moved = pile[m] & 63
                        exposed[moved] = True
                        loose.append(moved)
                    at = base - 1
                changed = True
                if at < 0:
                    return False
                exposed[pile[at] & 63] = True
            tops[i] = at
    return True


def _leaves(
    card: int, up: list[int], already: list[int], marked: list[int], exposed: list[bool], loose: list[int]
) -> bool:
    """Whether a card that can be reached (from a waste top, or an open card) leaves:
    up, or onto a holder, after which it is loose and may hold a card itself."""
    if _may_go_up(up, already, card):
        _raise(up, already, marked, card)
        return True
    if card >> 2 < 13 and exposed[card + 4]:
        exposed[card] = True
        loose.append(card)
        return True
    return False


def _may_go_up(up: list[int], already: list[int], card: int) -> bool:
    """Whether a copy of ``card`` in play may go up: more copies of the card one rank
    below could be up than there are copies of this card on the foundations now.
    (Which copy in play goes up first is left open, so the answer does not depend on
    the order in which copies are looked at.)"""
    if card >> 2 == 1:
        return True
    return up[card - 4] > already[card]


def _raise(up: list[int], already: list[int], marked: list[int], card: int) -> None:
    """Count one more copy of ``card`` able to go up, and carry the change up its suit."""
    marked[card] += 1
    below = 2 * len(up)  # more than any count: an ace needs nothing below it
    suit = card & 3
    for rank in range(1, 14):
        each = (rank << 2) | suit
        count = min(already[each] + marked[each], below)
        up[each] = count
        below = count
