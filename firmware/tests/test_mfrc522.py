"""mfrc522.py against a register-level fake chip and fake cards (MicroPython and CPython)."""

from fake_mfrc522 import FakeCard, FakeChip
from harness import raises, run
from mfrc522 import MFRC522, ReaderError, crc_a

UID4 = bytes([0x12, 0x34, 0x56, 0x78])
NTAG = bytes([0x04, 0xA2, 0x24, 0xB2, 0xC1, 0x2A, 0x81])  # NTAG21x: 7 bytes, first 0x04
UID10 = bytes([0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99])


def reader_with(*cards, latency=0):
    chip = FakeChip(cards, latency=latency)
    reader = MFRC522(chip)
    reader.init()
    return chip, reader


def test_crc_a_vectors():
    assert crc_a(bytes([0x50, 0x00])) == bytes([0x57, 0xCD])  # HLTA as every card sees it
    assert crc_a(bytes([0x00, 0x00])) == bytes([0xA0, 0x1E])  # ISO 14443-3 annex B
    assert crc_a(bytes([0x12, 0x34])) == bytes([0x26, 0xCF])


def test_init_reports_the_version_and_turns_the_antenna_on():
    chip = FakeChip()
    assert MFRC522(chip).init() == 0x92
    assert chip.regs[0x14] & 0x03 == 0x03  # TxControlReg: TX1 and TX2 on
    assert chip.regs[0x2A] == 0x80 and chip.regs[0x2B] == 0xA9  # timer: auto, 25 us ticks


def test_init_fails_clearly_without_a_chip():
    class Nothing:
        def transfer(self, data):
            return bytes(len(data))  # MISO stuck low: VersionReg reads 0x00

    assert raises(ReaderError, MFRC522(Nothing()).init)


def test_no_card_no_uid():
    chip, reader = reader_with()
    assert reader.read_uid() is None
    assert chip.exchanges == [(bytes([0x52]), 7)]  # one WUPA, nothing else


def test_a_4_byte_uid_in_one_cascade_level():
    chip, reader = reader_with(FakeCard(UID4, sak=0x08))
    assert reader.read_uid() == UID4
    frames = [frame for frame, _ in chip.exchanges]
    assert frames[1] == bytes([0x93, 0x20])  # anticollision, nothing known yet
    assert frames[2][:2] == bytes([0x93, 0x70])  # SELECT
    assert frames[3][:2] == bytes([0x50, 0x00])  # HLTA


def test_an_ntag_7_byte_uid_takes_two_cascade_levels():
    chip, reader = reader_with(FakeCard(NTAG))
    assert reader.read_uid() == NTAG
    sels = [frame[0] for frame, _ in chip.exchanges if frame[0] in (0x93, 0x95, 0x97)]
    assert sels == [0x93, 0x93, 0x95, 0x95]


def test_a_10_byte_uid_takes_three_cascade_levels():
    _chip, reader = reader_with(FakeCard(UID10))
    assert reader.read_uid() == UID10


def test_a_halted_card_is_woken_by_the_next_read():
    chip, reader = reader_with(FakeCard(NTAG))
    for _ in range(5):
        assert reader.read_uid() == NTAG
    assert chip.cards[0].selects == 5
    assert chip.cards[0].state == "halt"


def test_a_card_taken_away_reads_as_none():
    card = FakeCard(NTAG)
    chip, reader = reader_with(card)
    assert reader.read_uid() == NTAG
    chip.remove(card)
    assert reader.read_uid() is None


def test_two_cards_the_one_with_a_1_at_the_first_difference_wins():
    a = bytes([0x12, 0x34, 0x56, 0x78])
    b = bytes([0x12, 0x34, 0x57, 0x78])  # differ at bit 16 (byte 2, bit 0): b has the 1
    chip, reader = reader_with(FakeCard(a), FakeCard(b))
    assert reader.read_uid() == b
    chip.remove(chip.cards[1])
    assert reader.read_uid() == a


def test_collisions_in_every_byte_and_at_the_last_bit():
    cases = [
        (bytes([0x01, 0, 0, 0]), bytes([0x00, 0, 0, 0])),  # bit 1
        (bytes([0, 0, 0, 0x80]), bytes([0, 0, 0, 0x00])),  # bit 32, the last
        (bytes([0, 0x10, 0, 0]), bytes([0, 0x30, 0, 0])),  # bit 14
        (bytes([0xF0, 0x0F, 0xAA, 0x55]), bytes([0xF0, 0x0F, 0xAA, 0x45])),
    ]
    for x, y in cases:
        # Bits go out least significant first; the first one that differs decides.
        wins = None
        for i in range(32):
            bx = (x[i // 8] >> (i % 8)) & 1
            if bx != (y[i // 8] >> (i % 8)) & 1:
                wins = x if bx else y
                break
        _chip, reader = reader_with(FakeCard(x), FakeCard(y))
        assert reader.read_uid() == wins, (x, y)


def test_three_cards_all_read_one_after_another():
    uids = [
        bytes([0x10, 0x20, 0x30, 0x40]),
        bytes([0x11, 0x20, 0x30, 0x40]),
        bytes([0x10, 0x21, 0x30, 0x41]),
    ]
    chip, reader = reader_with(*[FakeCard(u) for u in uids])
    seen = []
    for _ in range(3):
        uid = reader.read_uid()
        assert uid in uids and uid not in seen
        seen.append(uid)
        chip.remove(next(c for c in chip.cards if c.uid == uid))
    assert reader.read_uid() is None


def test_two_ntags_alike_in_level_1_collide_in_level_2():
    a = NTAG
    b = NTAG[:3] + bytes([0xB2, 0xC1, 0x2B, 0x81])  # same first 3 bytes: same CL1
    chip, reader = reader_with(FakeCard(a), FakeCard(b))
    assert reader.read_uid() == b  # 0x2B has the 1 where 0x2A has a 0
    chip.remove(chip.cards[1])
    assert reader.read_uid() == a


def test_a_noisy_exchange_is_a_miss_and_counted():
    chip, reader = reader_with(FakeCard(NTAG))
    chip.noise = 1  # the WUPA fails: just no card
    assert reader.read_uid() is None
    assert reader.errors == 0
    chip.noise, chip.noise_after = 1, 1  # the WUPA goes well, the anticollision fails
    assert reader.read_uid() is None
    assert reader.errors == 1
    # The card was left half-selected; the next WUPA only sends it back to idle (ISO
    # 14443-3), so one more poll misses: CardPresence's 3 misses absorb that.
    assert reader.read_uid() is None
    assert reader.read_uid() == NTAG


def test_idle_is_called_while_the_chip_waits():
    calls = []
    _chip, reader = reader_with(FakeCard(NTAG), latency=3)
    assert reader.read_uid(lambda: calls.append(1)) == NTAG
    assert len(calls) >= 3 * 5  # WUPA, 2 x (anticollision, SELECT): each waited 3 polls


def test_a_chip_that_never_finishes_raises():
    class Stuck(FakeChip):
        def _read(self, reg):
            return 0 if reg == 0x04 else FakeChip._read(self, reg)  # ComIrqReg never set

    chip = Stuck([FakeCard(NTAG)])
    reader = MFRC522(chip)
    reader.init()
    assert raises(ReaderError, reader.read_uid)


run(globals(), "mfrc522")
