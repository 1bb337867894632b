"""The town square picture: what it shows, checked in its pixels; one golden image; names that
never overlap for 5 to 20 seats and 5 travellers; the same square gives the same bytes."""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from modbot.app.picture import drawing, layout
from modbot.app.picture.square import (
    CAST_YES,
    LOCKED_NO,
    LOCKED_YES,
    SeatMark,
    TownSquare,
    shown_nomination,
)

GOLDEN = Path(__file__).parent.parent / "golden" / "town_square.png"
NAMES = ["Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus", "Hanna"]


def _square(**changes) -> TownSquare:
    seats = []
    for index, name in enumerate(NAMES):
        seats.append(SeatMark(index + 1, name, alive=name not in ("Gus", "Fatima"),
                              vote_token=name == "Gus", traveller=name == "Hanna",
                              nominee=name == "Derek", nominator=name == "Alex",
                              hand=name == "Brianna",
                              vote={"Ellen": LOCKED_YES, "Fatima": LOCKED_NO,
                                    "Gus": LOCKED_YES, "Alex": CAST_YES}.get(name, "")))
    values = {"title": "Vote count 1.2 · Derek, nominated by Alex", "seats": tuple(seats),
              "centre": ("Derek", "2 votes, 5 needed", "About to die: nobody"),
              "legend": ((LOCKED_YES, "execute"), (LOCKED_NO, "pardon"),
                         (CAST_YES, "cast, not locked"), ("hand", "clock hand"),
                         ("vote_token", "vote token"), ("traveller", "traveller")),
              "alt": "Town square"}
    values.update(changes)
    return TownSquare(**values)


def _image(square: TownSquare) -> Image.Image:
    return Image.open(io.BytesIO(drawing.draw(square).png)).convert("RGB")


def _near(colour, expected, tolerance=40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=False))


def _spot(name: str) -> layout.Spot:
    return layout.spots(len(NAMES))[NAMES.index(name)]


def test_each_vote_shows_as_a_raised_or_lowered_hand_filled_when_locked():
    image = _image(_square())
    ellen, fatima, alex = _spot("Ellen"), _spot("Fatima"), _spot("Alex")
    radius = layout.token_radius(len(NAMES))
    assert _near(image.getpixel((ellen.x, ellen.y)), drawing.YES)  # locked execute: filled
    assert _near(image.getpixel((fatima.x, fatima.y)), drawing.NO)  # locked pardon: filled
    # a lowered hand points down: its colour is above the centre, not below it
    assert _near(image.getpixel((fatima.x, fatima.y - radius * 0.3)), drawing.NO)
    assert not _near(image.getpixel((fatima.x, fatima.y + radius * 0.55)), drawing.NO)
    # cast, not locked: hollow (the card's colour inside, the vote's colour on the edge)
    assert _near(image.getpixel((alex.x, alex.y + 2)), drawing.CARD)
    edge = [image.getpixel((alex.x + dx, alex.y + radius * 0.4)) for dx in range(-14, 15)]
    assert any(_near(p, drawing.YES) for p in edge)


def test_the_dead_are_shrouded_and_an_unspent_vote_token_is_marked():
    image = _image(_square())
    radius = layout.token_radius(len(NAMES))
    gus, derek = _spot("Gus"), _spot("Derek")
    assert _near(image.getpixel((gus.x - radius * 0.4, gus.y - radius * 0.7)), drawing.SHROUD, 30)
    assert _near(image.getpixel((derek.x - radius * 0.4, derek.y - radius * 0.7)), drawing.ALIVE, 30)
    token = (gus.x + radius * drawing.TOKEN_AT, gus.y - radius * drawing.TOKEN_AT)
    assert min(image.getpixel(token)) > 200  # a light dot on the dark token
    without = _image(_square(seats=tuple(s if s.name != "Gus" else
                                         SeatMark(7, "Gus", False, False, False, vote=LOCKED_YES)
                                         for s in _square().seats)))
    assert _near(without.getpixel(token), drawing.DEAD, 20)


def test_the_clock_hand_points_at_the_seat_it_waits_on():
    image = _image(_square())
    cx, cy = layout.CENTRE
    radius = layout.token_radius(len(NAMES))

    def ink_before(name: str) -> bool:
        spot = _spot(name)
        length = ((spot.x - cx) ** 2 + (spot.y - cy) ** 2) ** 0.5
        ux, uy = (spot.x - cx) / length, (spot.y - cy) / length
        point = (cx + ux * (length - radius - 20), cy + uy * (length - radius - 20))
        return _near(image.getpixel(point), drawing.INK, 50)
    assert ink_before("Brianna")
    assert not ink_before("Cameron") and not ink_before("Hanna")


def test_the_nominee_is_ringed():
    image = _image(_square())
    derek = _spot("Derek")
    radius = layout.token_radius(len(NAMES))
    ring = [image.getpixel((derek.x + radius + dx, derek.y)) for dx in range(2, 10)]
    assert any(_near(p, drawing.NOMINEE) for p in ring)


def test_the_golden_picture_is_unchanged():
    """Checked by eye once (tests/golden/town_square.png); compared with a small tolerance, as
    fonts rasterise a little differently across machines."""
    image = _image(_square())
    golden = Image.open(GOLDEN).convert("RGB")
    assert image.size == golden.size == (690, 500)
    difference = ImageChops.difference(image, golden).convert("L")
    changed = sum(difference.histogram()[61:])
    assert changed < 0.01 * 690 * 500, changed


def test_the_same_square_gives_the_same_bytes():
    assert drawing.draw(_square()).png == drawing.draw(_square()).png
    assert drawing.draw(_square()).sha1 != drawing.draw(_square(title="Vote count 1.3")).sha1


def test_twenty_seats_fit_the_budget():
    names = [f"Player number {n}" for n in range(1, 21)]
    seats = tuple(SeatMark(n + 1, name, True, False, False) for n, name in enumerate(names))
    picture = drawing.draw(_square(seats=seats))
    assert (picture.width, picture.height) == (690, 500)
    assert len(picture.png) <= 80 * 1024


NAME = st.text(alphabet=st.sampled_from(list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                             "_.-0123456789ΑΒΓΔαβγδДмитрийЖЩ山田")),
               min_size=1, max_size=20)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=5, max_value=25).flatmap(
    lambda n: st.lists(NAME, min_size=n, max_size=n)), st.integers(0, 25))
def test_names_never_overlap_each_other_the_tokens_or_the_edge(names, nominee):
    bold = [i == nominee % len(names) for i in range(len(names))]
    placed = layout.labels(names, bold, list(range(1, len(names) + 1)))
    radius = layout.token_radius(len(names))
    tokens = [layout.token_box(s, radius) for s in layout.spots(len(names))]
    for index, label in enumerate(placed):
        left, top, right, bottom = label.box
        assert left >= layout.MARGIN and right <= layout.WIDTH - layout.MARGIN
        assert top >= layout.TOP_BAND and bottom <= layout.BOTTOM_BAND
        assert not any(layout.overlaps(label.box, t) for i, t in enumerate(tokens) if i != index)
        assert not any(layout.overlaps(label.box, other.box) for other in placed[index + 1:])
        name = names[index]
        assert label.text == name or (label.text.endswith(layout.ELLIPSIS) and \
            name.startswith(label.text[:-1])) or label.text == f"#{index + 1}"


def test_a_name_no_font_draws_becomes_the_seats_number():
    placed = layout.labels(["Alex", "山田", "Cameron", "Derek", "Ellen"], [False] * 5,
                           [1, 2, 3, 4, 5])
    drawable = layout.font_for("山田", layout.LABEL_SIZE)
    assert placed[1].text == ("山田" if drawable else "#2")
    assert placed[0].text == "Alex"


def test_the_picture_shows_the_running_nomination_else_the_leading_one():
    open_few = {"open": True, "yes": 1, "nominee": "A"}
    open_many = {"open": True, "yes": 3, "nominee": "B"}
    closed_most = {"open": False, "yes": 6, "nominee": "C"}
    assert shown_nomination({"nominations": [closed_most, open_many, open_few]})["nominee"] == "B"
    assert shown_nomination({"nominations": [closed_most, dict(open_few, open=False)]})["nominee"] == "C"
    assert shown_nomination({"nominations": []}) is None
