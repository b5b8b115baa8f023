"""debounce.py: confirmed edges, stamped when the contact first moved, once per lock-out."""

from debounce import Debouncer
from harness import raises, run


def feed(debouncer, samples):
    """samples: [(level, t_us)]; the edges reported."""
    edges = []
    for level, t in samples:
        edge = debouncer.sample(level, t)
        if edge is not None:
            edges.append(edge)
    return edges


def steady(level, start, end, step=250):
    return [(level, t) for t in range(start, end, step)]


def test_a_clean_press_and_release():
    d = Debouncer()
    edges = feed(d, steady(0, 0, 1000) + steady(1, 1000, 50000) + steady(0, 50000, 90000))
    assert edges == [(True, 1000), (False, 50000)]


def test_one_sample_is_not_an_edge():
    d = Debouncer()
    assert d.sample(1, 1000) is None
    assert d.sample(1, 1250) == (True, 1000)


def test_a_spike_shorter_than_two_samples_is_ignored():
    d = Debouncer()
    samples = steady(0, 0, 1000)
    samples.append((1, 1000))  # one sample high, then low again
    samples += steady(0, 1250, 5000) + steady(1, 9000, 10000)
    edges = feed(d, samples)
    assert edges == [(True, 9000)]


def test_bounce_on_press_is_stamped_at_first_contact():
    d = Debouncer()
    bouncy = [(1, 1000), (0, 1100), (1, 1200), (0, 1300), (1, 1400), (1, 1500), (1, 1600)]
    edges = feed(d, steady(0, 0, 1000) + bouncy + steady(1, 1700, 40000))
    assert edges == [(True, 1000)]


def test_chatter_in_the_lockout_is_not_an_edge():
    d = Debouncer(lockout_us=20000)
    samples = steady(1, 0, 2000)  # pressed at 0, confirmed at 250
    samples += [(t // 500 % 2, t) for t in range(2000, 15000, 100)]  # chatter until 15 ms
    samples += steady(1, 15000, 60000)
    assert feed(d, samples) == [(True, 0)]


def test_a_tap_shorter_than_the_lockout_still_gives_its_release():
    d = Debouncer(lockout_us=20000)
    edges = feed(d, steady(1, 0, 8000) + steady(0, 8000, 40000))
    assert edges == [(True, 0), (False, 8000)]  # released at 8 ms, reported at 20 ms
    assert d.pressed is False


def test_edges_always_alternate():
    d = Debouncer(lockout_us=3000)
    level, t, edges = 0, 0, []
    seed = 12345
    for _ in range(5000):  # a pseudo-random contact, with runs of every length
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        if seed % 7 == 0:
            level ^= 1
        t += 100 + seed % 400
        edge = d.sample(level, t)
        if edge is not None:
            edges.append(edge)
    assert len(edges) > 10
    for i, (pressed, stamp) in enumerate(edges):
        assert pressed == (i % 2 == 0)
        if i:
            assert stamp > edges[i - 1][1]


def test_a_debouncer_can_start_pressed():
    d = Debouncer(pressed=True)
    assert feed(d, steady(1, 0, 5000)) == []
    assert feed(d, steady(0, 5000, 6000)) == [(False, 5000)]


def test_bad_settings_are_refused():
    assert raises(ValueError, Debouncer, -1)
    assert raises(ValueError, Debouncer, 1000, 0)


run(globals(), "debounce")
