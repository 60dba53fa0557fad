"""A learned evaluation for the searching players: a small network, read from a weights file,
that maps what a seat may know to the outcome it expects (``apokalypse learn`` trains it).

**What the network sees.** For every seat of a (sampled) world: the game's own feature vector of
that seat's observation (``Game.features``, :mod:`apokalypse.engine.codec`: computed from the
observation alone, so it can never hold another seat's secret), then a few inputs the game's
value module adds (the ``value`` its registry entry names, ``bots/<game>/value.py``:
``extra_names(config)`` and ``extra(world, seat, base)``), e.g. Apokalypse's ethos of the other
seats *as the sampled world has them* (a draw from the searching player's beliefs) and the
hand-made evaluation's value. Each input is divided by its range's upper end, so all lie in
about 0 … 1.

**What it says.** One number in 0 … 1 per seat: the value the game's own evaluation gives the
seat at the end of the game (a win, and a little of the final standing; Apokerlypse's share of
the chips), as expected from here. The network corrects the hand-made evaluation (:class:`Net`):
its output is added to the hand-made value's log-odds, so that the search keeps the hand-made
evaluation's sharp sense of what one move changes where the games taught nothing else.

**The weights file** (``.npz``, NumPy only): one network per *feature layout* (a fingerprint of
the fields, their shapes and ranges, and the added inputs: one per player count and deck), and a
JSON ``meta`` record of the game, the format and the provenance (data, seed, command, commit).
The same record is written beside it as ``NAME.json`` for people to read. :func:`load` checks
the file and refuses a missing, unreadable or foreign one in one line (:class:`WeightsError`);
a game config whose layout the file holds no network for is not an error: :meth:`Weights.net`
answers None and the player falls back to the hand-made evaluation (``levels.py`` says so).

The packaged weights of a game are ``weights.npz`` in the package of its value module
(``bots/<game>/weights.npz``); the environment variable ``APOKALYPSE_WEIGHTS`` names another file
(``--weights`` on the command line sets it, so that worker processes see it too).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol, cast

import numpy as np
import numpy.typing as npt

from apokalypse.engine.codec import Codec
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.protocol import Game, GameConfig, GameState
from apokalypse.engine.registry import part

Array = npt.NDArray[np.float32]

FORMAT = 1  # the file's layout; load() refuses another
ENVIRONMENT = "APOKALYPSE_WEIGHTS"
PACKAGED = "weights.npz"  # in the package of the game's value module
BASE = "evaluation"  # the last added input: the game's hand-made value, which the network corrects


class WeightsError(ConfigError):
    """A weights file that cannot be used: one line naming the file and what is wrong."""


class ValueInputs(Protocol):
    """A game's value module (its registry entry's ``value``)."""

    def extra_names(self, config: GameConfig) -> Sequence[str]: ...

    def extra(self, world: GameState, seat: int, base: Sequence[float]) -> Sequence[float]: ...

    def base(self, world: GameState) -> Sequence[float]: ...


def _value(game: str) -> ModuleType:
    found = part(game, "value")
    if found is None:
        raise ConfigError(f"{game} has no learned evaluation")
    if not (
        isinstance(found, ModuleType)
        and all(callable(getattr(found, name, None)) for name in ("extra_names", "extra", "base"))
    ):
        raise TypeError(f"{game}'s value inputs are not a module of extra_names, extra and base")
    return found


def value_module(game: str) -> ValueInputs:
    """The game's value module (its registry entry's ``value``): what the game adds to the
    features, and its hand-made evaluation."""
    return cast(ValueInputs, _value(game))


@dataclass(frozen=True)
class Layout:
    """The inputs of one game config: the feature fields (as the codec lists them) and the
    added inputs; its ``key`` is the fingerprint a weights file stores a network under."""

    fields: tuple[tuple[str, tuple[int, ...], float, float], ...]
    extras: tuple[str, ...]

    @property
    def key(self) -> str:
        text = json.dumps([list(self.fields), list(self.extras)], separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def size(self) -> int:
        return sum(int(np.prod(shape)) for _, shape, _, _ in self.fields) + len(self.extras)

    def scale(self) -> Array:
        """The divisor of every input: its range's upper end (at least 1)."""
        parts = [
            np.full(int(np.prod(shape)), max(1.0, abs(high)), np.float32)
            for _, shape, _, high in self.fields
        ]
        parts.append(np.ones(len(self.extras), np.float32))
        return np.concatenate(parts)


def layout_of(game: Game, config: GameConfig) -> Layout:
    features = game.features(config)
    fields = tuple((f.name, tuple(f.shape), float(f.low), float(f.high)) for f in features.fields)
    extras = tuple(value_module(game.name).extra_names(config))
    if not extras or extras[-1] != BASE:
        raise ValueError(f"{game.name}: the last added input must be the hand-made {BASE!r}")
    return Layout(fields, extras)


def logit(p: Array) -> Array:
    """The log-odds of values in 0 … 1 (kept off the ends, where they are infinite)."""
    q = np.clip(p, 1e-4, 1 - 1e-4)
    out: Array = np.log(q / (1 - q)).astype(np.float32)
    return out


@dataclass
class Net:
    """A multilayer perceptron that corrects the hand-made evaluation: the inputs, divided by
    ``scale``, go through ReLU layers to one number that is added to the log-odds of the last
    input (the hand-made value, see :data:`BASE`), and a sigmoid makes it a value again. A
    network of zeros is the hand-made evaluation; training moves it only as far as the games
    show, so a position unlike any it was trained on keeps mostly the hand-made value."""

    scale: Array
    weights: list[Array]
    biases: list[Array]

    def __post_init__(self) -> None:
        if len(self.weights) != len(self.biases) or not self.weights:
            raise ValueError("a network needs one bias per weight matrix, and at least one")

    @property
    def inputs(self) -> int:
        return int(self.weights[0].shape[0])

    def values(self, x: Array) -> Array:
        """The value of each row of ``x`` (unscaled inputs), 0 … 1."""
        first: Array = ((x / self.scale) @ self.weights[0] + self.biases[0]).astype(np.float32)
        return self.finish(first, x[:, -1])

    def finish(self, h: Array, base: Array) -> Array:
        """The values from the first layer's sums ``h`` (before its ReLU) and the hand-made
        values ``base``: the other layers, then the correction."""
        for w, b in zip(self.weights[1:], self.biases[1:], strict=True):
            h = np.maximum(h, 0.0) @ w + b
        out: Array = (1.0 / (1.0 + np.exp(-(h[:, 0] + logit(base))))).astype(np.float32)
        return out

    def first_rows(self) -> Array:
        """The first layer's weights with the input scale folded in: row ``i`` is what an input
        ``i`` of 1 adds to the first layer's sums (a sparse input sums a few rows)."""
        rows: Array = (self.weights[0] / self.scale[:, None]).astype(np.float32)
        return rows


@dataclass
class Weights:
    """A weights file's contents: the game, a network per layout key, and the provenance."""

    game: str
    nets: dict[str, Net]
    meta: dict[str, Any] = field(default_factory=dict)

    def net(self, layout: Layout) -> Net | None:
        """The network for ``layout``, or None where the file holds none for it."""
        return self.nets.get(layout.key)

    def to_bytes(self) -> bytes:
        arrays: dict[str, npt.NDArray[Any]] = {}
        for key, net in self.nets.items():
            arrays[f"{key}/scale"] = net.scale
            for i, (w, b) in enumerate(zip(net.weights, net.biases, strict=True)):
                # float16 halves the file; the values are used as float32 (see _array)
                arrays[f"{key}/w{i}"] = w.astype(np.float16)
                arrays[f"{key}/b{i}"] = b.astype(np.float32)
        meta = {**self.meta, "format": FORMAT, "game": self.game, "layouts": sorted(self.nets)}
        arrays["meta"] = np.array(json.dumps(meta, sort_keys=True))
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
        return buffer.getvalue()

    def provenance(self, **more: object) -> str:
        """The human-readable record written beside the file: the file's own, and ``more``
        (what would make two runs' files differ though their weights are the same, such as
        the time the training took)."""
        meta = {**self.meta, "format": FORMAT, "game": self.game, "layouts": sorted(self.nets)}
        return json.dumps({**meta, **more}, indent=2, sort_keys=True) + "\n"


def sidecar(path: Path) -> Path:
    """Where the provenance of ``path`` is written: ``NAME.json`` beside ``NAME.npz``."""
    return path.with_suffix(".json")


def load(path: Path, game: str) -> Weights:
    """The weights in ``path`` for ``game``; a missing, unreadable, foreign or malformed file is
    a one-line :class:`WeightsError` naming it."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise WeightsError(f"weights file {path}: not found") from None
    except OSError as exc:
        raise WeightsError(f"weights file {path}: cannot be read ({exc.strerror})") from None
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
    except (ValueError, OSError, zipfile.BadZipFile, EOFError) as exc:
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise WeightsError(f"weights file {path}: not a weights file ({why})") from None
    return _parse(path, game, arrays)


def _parse(path: Path, game: str, arrays: Mapping[str, npt.NDArray[Any]]) -> Weights:
    where = f"weights file {path}"
    try:
        meta = json.loads(str(arrays["meta"]))
    except (KeyError, ValueError):
        raise WeightsError(f"{where}: not a weights file (no meta record)") from None
    if not isinstance(meta, dict):
        raise WeightsError(f"{where}: not a weights file (its meta record is not an object)")
    if meta.get("format") != FORMAT:
        raise WeightsError(
            f"{where}: format {meta.get('format')!r}, this version reads format {FORMAT}"
        )
    if meta.get("game") != game:
        raise WeightsError(f"{where}: holds weights for {meta.get('game')!r}, not {game!r}")
    nets: dict[str, Net] = {}
    for key in meta.get("layouts", []):
        try:
            layers = sum(1 for name in arrays if name.startswith(f"{key}/w"))
            net = Net(
                _array(arrays[f"{key}/scale"]),
                [_array(arrays[f"{key}/w{i}"]) for i in range(layers)],
                [_array(arrays[f"{key}/b{i}"]) for i in range(layers)],
            )
            _check_shapes(net)
        except (KeyError, ValueError) as exc:
            raise WeightsError(f"{where}: the network {key} is broken ({exc})") from None
        nets[str(key)] = net
    if not nets:
        raise WeightsError(f"{where}: holds no network")
    return Weights(game, nets, {k: v for k, v in meta.items() if k not in ("format", "game")})


def _array(a: npt.NDArray[Any]) -> Array:
    if a.dtype.kind != "f" or not np.all(np.isfinite(a)):
        raise ValueError("an array is not finite numbers")
    return a.astype(np.float32)


def _check_shapes(net: Net) -> None:
    width = net.scale.shape[0]
    for w, b in zip(net.weights, net.biases, strict=True):
        if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
            raise ValueError(f"a layer of shape {w.shape} does not follow one of width {width}")
        width = w.shape[1]
    if width != 1:
        raise ValueError(f"the last layer gives {width} values, not 1")


def packaged_path(game: str) -> Path:
    """The weights packaged with ``game``: beside its value module, whose inputs they were
    trained on."""
    package = _value(game).__package__
    assert package, f"{game}'s value module is in no package"
    return Path(str(files(package).joinpath(PACKAGED)))


def weights_path(game: str) -> Path:
    """The weights the ``master`` level of ``game`` uses: ``$APOKALYPSE_WEIGHTS`` where it is
    set and names a file of this game, else the packaged file."""
    chosen = os.environ.get(ENVIRONMENT)
    if chosen and _game_of(Path(chosen)) == game:
        return Path(chosen)
    return packaged_path(game)


def _game_of(path: Path) -> str | None:
    try:
        with np.load(path, allow_pickle=False) as archive:
            meta = json.loads(str(archive["meta"]))
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError):
        return None
    return meta.get("game") if isinstance(meta, dict) else None


@lru_cache(maxsize=8)
def _cached(path: str, game: str, stamp: tuple[int, int]) -> Weights:
    return load(Path(path), game)


def weights_for(game: str) -> Weights:
    """The ``master`` level's weights (:func:`weights_path`), read once per file version."""
    path = weights_path(game)
    try:
        stat = path.stat()
    except OSError:
        raise WeightsError(f"weights file {path}: not found") from None
    return _cached(str(path), game, (stat.st_mtime_ns, stat.st_size))


def evaluation(
    game: Game, config: GameConfig, weights: Weights
) -> Callable[[GameState], Sequence[float]] | None:
    """The learned evaluation of ``config``'s worlds, or None where ``weights`` hold no network
    for its layout."""
    layout = layout_of(game, config)
    net = weights.net(layout)
    if net is None:
        return None
    encode = game.features(config).encode
    value = value_module(game.name)
    players = config.players
    # The inputs are sparse (a few dozen of thousands are not 0): the first layer sums the
    # rows of the inputs that are, instead of multiplying the whole vector. This assumes that
    # no index is both among an observation's ones and its set values, which
    # ``tests/test_learned.py`` checks against the dense vector.
    rows = net.first_rows()
    size = layout.size - len(layout.extras)
    extra_rows, bias = rows[size:], net.biases[0]

    def evaluate(world: GameState) -> Sequence[float]:
        base = value.base(world)
        if world.is_over:  # the game's own result
            return base
        # Every seat's inputs in one list (each seat's own run of it starts at ``starts[q]``,
        # never empty: the seat's one-hot is in it), so that numpy is called a few times per
        # world rather than a few times per seat.
        index: list[int] = []
        weight: list[float] = []
        starts: list[int] = []
        extras: list[Sequence[float]] = []
        for q in range(players):
            ones, at, values = encode(world.observation(q))
            starts.append(len(index))
            index += ones
            index += at
            weight += [1.0] * len(ones)
            weight += values
            extras.append(value.extra(world, q, base))
        gathered = rows[index] * np.asarray(weight, np.float32)[:, None]
        h = np.add.reduceat(gathered, starts, axis=0) + bias
        h += np.asarray(extras, np.float32) @ extra_rows
        return net.finish(h, np.asarray(base, np.float32)).tolist()  # type: ignore[no-any-return]

    return evaluate


class Learned:
    """The learned evaluation of a game's worlds, whatever their config: the network for the
    world's layout, or the hand-made evaluation where the weights hold none for it (another
    player count or deck); :attr:`used` says which the last world got."""

    def __init__(self, game: Game, weights: Weights) -> None:
        self.game = game
        self.weights = weights
        self.base = value_module(game.name).base
        self._config: object = None
        self._evaluate: Callable[[GameState], Sequence[float]] | None = None
        self.used = False

    def __call__(self, world: GameState) -> Sequence[float]:
        config: GameConfig = world.config  # type: ignore[attr-defined]  # every game's State
        if config is not self._config:  # a search's worlds share their config object
            self._config = config
            self._evaluate = evaluation(self.game, config, self.weights)
        self.used = self._evaluate is not None
        return self.base(world) if self._evaluate is None else self._evaluate(world)


def inputs(codec: Codec, value: ValueInputs, world: GameState, players: int) -> Array:
    """Every seat's input row of ``world`` (training reads them as the evaluation does)."""
    base = value.base(world)
    rows = []
    for q in range(players):
        extra = np.asarray(value.extra(world, q, base), np.float32)
        rows.append(np.concatenate([codec.encode(world.observation(q)), extra]))
    return np.stack(rows)


__all__ = [
    "BASE",
    "ENVIRONMENT",
    "FORMAT",
    "Layout",
    "Learned",
    "Net",
    "ValueInputs",
    "Weights",
    "WeightsError",
    "evaluation",
    "inputs",
    "layout_of",
    "load",
    "packaged_path",
    "sidecar",
    "value_module",
    "weights_for",
    "weights_path",
]
