"""leds.py and buzzer.py: modes and beeps become pin levels and tones at the right time."""

from buzzer import Beeper
from harness import raises, run
from leds import ALL, BLINK, OFF, ON, LedBank


class Pin:
    def __init__(self):
        self.writes = []

    def __call__(self, level):
        self.writes.append(level)


def test_leds_start_off_and_write_only_changes():
    pins = [Pin(), Pin()]
    bank = LedBank(pins)
    assert [p.writes for p in pins] == [[0], [0]]
    bank.set(0, ON, 0, 10)
    bank.update(20)
    bank.update(30)
    assert pins[0].writes == [0, 1]
    assert pins[1].writes == [0]


def test_blinking_in_step_with_the_default_period():
    pins = [Pin(), Pin()]
    bank = LedBank(pins)
    bank.set(0, BLINK, 0, 100000)
    bank.set(1, BLINK, 500, 300000)  # set later, blinks in step anyway
    levels = []
    for t in range(0, 1000000, 50000):
        bank.update(t)
        levels.append((bank.level(0, t), bank.level(1, t)))
    assert all(a == b for a, b in levels)
    assert [a for a, _ in levels] == [1] * 5 + [0] * 5 + [1] * 5 + [0] * 5


def test_all_and_off():
    pins = [Pin(), Pin(), Pin()]
    bank = LedBank(pins)
    bank.set(ALL, ON)
    assert [p.writes[-1] for p in pins] == [1, 1, 1]
    bank.off()
    assert [p.writes[-1] for p in pins] == [0, 0, 0]
    assert raises(ValueError, bank.set, 3, ON)
    assert raises(ValueError, bank.set, 0, 7)
    assert bank.modes == [OFF, OFF, OFF]


class Sound:
    def __init__(self):
        self.log = []

    def tone(self, hz):
        self.log.append(hz)

    def quiet(self):
        self.log.append(0)


def test_a_beep_starts_and_stops():
    sound = Sound()
    beeper = Beeper(sound)
    beeper.beep(120, 3000, 1000)
    assert beeper.sounding
    beeper.update(120999)
    assert sound.log == [0, 3000]
    beeper.update(121000)
    assert sound.log == [0, 3000, 0] and not beeper.sounding


def test_default_frequency_replacement_and_zero():
    sound = Sound()
    beeper = Beeper(sound, default_hz=2000)
    beeper.beep(100, 0, 0)
    beeper.beep(300, 1000, 50000)  # replaces: ends at 350 ms, not 100
    beeper.update(200000)
    assert beeper.sounding
    beeper.beep(0, 0, 210000)  # 0 ms: stop now
    assert not beeper.sounding
    assert sound.log == [0, 2000, 1000, 0]


run(globals(), "outputs")
