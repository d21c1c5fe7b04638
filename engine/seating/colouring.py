"""Bipartite matchings and edge colourings by alternating paths (Konig's theorem), for
``letters``: plain graph algorithms on vertices numbered from 0 and edges as pairs."""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

X = TypeVar("X", bound=Hashable)  # a vertex of one side
Y = TypeVar("Y", bound=Hashable)  # a vertex of the other side


def augment(start: X, adjacency: Mapping[X, Sequence[Y]], mate_x: dict[X, Y], mate_y: dict[Y, X]) -> bool:
    """Augment a bipartite matching along a shortest path from the free vertex ``start``
    of side X (``adjacency``: X -> Y lists; ``mate_x``/``mate_y``: partners).  Vertices
    matched before stay matched.  Returns whether a path was found."""
    reached_from: dict[Y, X] = {}
    queue, seen = [start], {start}
    for x in queue:
        for y in adjacency[x]:
            if y in reached_from:
                continue
            reached_from[y] = x
            partner = mate_y.get(y)
            if partner is None:
                _flip_path(start, y, reached_from, mate_x, mate_y)
                return True
            if partner not in seen:
                seen.add(partner)
                queue.append(partner)
    return False


def _flip_path(start: X, end: Y, reached_from: dict[Y, X], mate_x: dict[X, Y], mate_y: dict[Y, X]) -> None:
    """Match along the path found from ``start`` (free) to the free vertex ``end``; every
    other X vertex on it was matched."""
    y = end
    while True:
        x = reached_from[y]
        old = mate_x[x] if x != start else None
        mate_x[x] = y
        mate_y[y] = x
        if old is None:
            return
        y = old


class _EdgeColouring:
    """A proper edge colouring of a bipartite graph, built edge by edge (see ``edge_colouring``).

    ``at[side][v][c]``: the edge of colour c at vertex v of that side (0 left, 1 right),
    None if free, -1 if taken in an earlier round.
    """

    def __init__(
        self,
        edges: Sequence[tuple[int, int]],
        left_count: int,
        right_count: int,
        colours: int,
        taken: Mapping[int, Sequence[int]] | None,
    ) -> None:
        self.edges = edges
        self.colours = colours
        self.at: tuple[list[list[int | None]], list[list[int | None]]] = (
            [[None] * colours for _ in range(left_count)],
            [[None] * colours for _ in range(right_count)],
        )
        for v, used in (taken or {}).items():
            for colour in used:
                self.at[1][v][colour] = -1
        self.colour = [-1] * len(edges)  # -1 until painted

    def free(self, side: int, v: int) -> list[int]:
        """The colours free at vertex v of a side."""
        return [colour for colour in range(self.colours) if self.at[side][v][colour] is None]

    def alternating_path(self, v: int, first: int, second: int) -> list[int] | None:
        """The edges of the path from right vertex v alternating colours first, second, or
        None if it runs into a colour taken in an earlier round."""
        path: list[int] = []
        vertex, side, colour = v, 1, first
        while True:
            edge = self.at[side][vertex][colour]
            if edge is None:
                return path
            if edge == -1:
                return None
            path.append(edge)
            vertex = self.edges[edge][1 - side]
            side = 1 - side
            colour = second if colour == first else first

    def swap_path(self, path: Sequence[int], first: int, second: int) -> None:
        """Exchange colours first and second along ``path``."""
        for edge in path:
            u, v = self.edges[edge]
            self.at[0][u][self.colour[edge]] = None
            self.at[1][v][self.colour[edge]] = None
        for edge in path:
            u, v = self.edges[edge]
            self.colour[edge] = second if self.colour[edge] == first else first
            self.at[0][u][self.colour[edge]] = edge
            self.at[1][v][self.colour[edge]] = edge

    def paint(self, edge: int, colour: int) -> None:
        """Give ``edge`` a colour free at both its ends."""
        u, v = self.edges[edge]
        self.colour[edge] = colour
        self.at[0][u][colour] = edge
        self.at[1][v][colour] = edge


def edge_colouring(
    edges: Sequence[tuple[int, int]],
    left_count: int,
    right_count: int,
    colours: int,
    rng: random.Random,
    taken: Mapping[int, Sequence[int]] | None = None,
) -> list[int] | None:
    """A proper edge colouring with ``colours`` colours of a bipartite graph of maximum
    degree at most ``colours``, by alternating paths; ``edges`` are (left, right) pairs.

    ``taken[v]``: colours right vertex v already has from earlier rounds (its degree
    here is at most ``colours`` minus their number).  Without them this always succeeds
    (Konig); with them an alternating path may run into one, and None is returned when
    no choice of colours avoids that.
    """
    graph = _EdgeColouring(edges, left_count, right_count, colours, taken)
    order = list(range(len(edges)))
    rng.shuffle(order)
    for edge in order:
        u, v = edges[edge]
        free_u, free_v = graph.free(0, u), graph.free(1, v)
        common = [colour for colour in free_u if colour in free_v]
        if common:
            graph.paint(edge, rng.choice(common))
            continue
        choices = [(first, second) for first in free_u for second in free_v]
        rng.shuffle(choices)
        for first, second in choices:
            # The path from v alternating first, second; swapped, it frees first at v
            # (it cannot reach u).  It may not pass a colour taken in earlier rounds.
            path = graph.alternating_path(v, first, second)
            if path is not None:
                break
        else:
            return None
        graph.swap_path(path, first, second)
        graph.paint(edge, first)
    return graph.colour
