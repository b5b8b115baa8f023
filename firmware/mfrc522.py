"""The MFRC522 card reader chip: ISO 14443A cards' UIDs (4, 7 or 10 bytes). Pure Python.

The bus is anything with `transfer(data) -> bytes` that clocks `data` out with the chip
selected and returns the bytes clocked in (hw.SpiBus on the Pico; a register-level fake
chip with fake cards in firmware/tests), so the register protocol, REQA/WUPA, the
anticollision cascade (levels 1 to 3) and SELECT are all tested without hardware.

    reader = MFRC522(bus)
    reader.init()                    # soft reset, timer, 100 % ASK, antenna on: the version
    reader.read_uid(idle)            # b"\\x04\\xa2..." (7 bytes for an NTAG21x), or None

One read: WUPA (which also wakes a card we halted last time), then per cascade level the
anticollision loop until all 32 bits of that level's UID part and its BCC are known, then
SELECT, whose SAK says whether another level follows; then HLTA, so the next WUPA finds
the card again. `idle` is called while the chip waits for the card, so the firmware keeps
sampling its buttons during a read.

With several cards in the field, the anticollision follows the card with a 1 at each
colliding bit. CollReg's CollPos is read as counting from the first bit of the level's
UID part (as the widely used Arduino MFRC522 library reads it, on real chips).
"""

# registers
COMMAND = 0x01
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_MODE = 0x12
RX_MODE = 0x13
TX_CONTROL = 0x14
TX_ASK = 0x15
MOD_WIDTH = 0x24
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# chip commands
CMD_IDLE = 0x00
CMD_TRANSCEIVE = 0x0C
CMD_SOFT_RESET = 0x0F
POWER_DOWN = 0x10

# ComIrqReg bits
IRQ_TIMER = 0x01
IRQ_RX_IDLE = 0x30
# ErrorReg bits
ERR_COLLISION = 0x08
ERR_FATAL = 0x13  # buffer overflow, parity, protocol

# card commands
REQA = 0x26
WUPA = 0x52
SELECT = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
SAK_MORE = 0x04
NVB_SELECT = 0x70

OK = 0
TIMEOUT = 1
FAILED = 2
COLLISION = 3

TIMER_RELOAD = 200
"""Chip timer ticks (25 us each) to wait for a card's answer: 5 ms; cards answer in ~0.1."""
MAX_POLLS = 2000
"""A hard bound on ComIrqReg reads per exchange, should the chip's timer never fire."""
KNOWN_VERSIONS = (0x88, 0x91, 0x92, 0x12, 0xB2)
"""0x91/0x92: MFRC522 1.0/2.0; 0x88: FM17522 clone; 0x12, 0xB2: other clones."""


class ReaderError(Exception):
    """The chip itself does not answer or misbehaves (not: no card, a failed read)."""


def crc_a(data):
    """ISO 14443-3 CRC_A (init 0x6363), as the two bytes sent after a frame, LSB first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes([crc & 0xFF, crc >> 8])


def _nothing():
    pass


class MFRC522:
    def __init__(self, bus):
        self.bus = bus
        self.version = None
        self.errors = 0
        """Exchanges that failed (noise, a card leaving mid-read) since init."""

    # ---- registers over SPI: address byte (reg << 1), bit 7 set to read ----

    def write(self, reg, value):
        self.bus.transfer(bytes([(reg << 1) & 0x7E, value]))

    def write_many(self, reg, data):
        self.bus.transfer(bytes([(reg << 1) & 0x7E]) + bytes(data))

    def read(self, reg):
        return self.bus.transfer(bytes([0x80 | ((reg << 1) & 0x7E), 0]))[1]

    def read_many(self, reg, count):
        """`count` reads of one register (the FIFO) in one transfer."""
        address = 0x80 | ((reg << 1) & 0x7E)
        return bytes(self.bus.transfer(bytes([address] * count + [0]))[1:])

    def set_bits(self, reg, mask):
        self.write(reg, self.read(reg) | mask)

    def clear_bits(self, reg, mask):
        self.write(reg, self.read(reg) & (~mask & 0xFF))

    # ---- the chip ----

    def init(self, idle=_nothing):
        """Resets and configures the chip, turns the antenna on; returns VersionReg.
        Raises ReaderError if nothing sensible answers."""
        self.write(COMMAND, CMD_SOFT_RESET)
        for _ in range(MAX_POLLS):
            if not self.read(COMMAND) & POWER_DOWN:
                break
            idle()
        else:
            raise ReaderError("the MFRC522 did not come out of its soft reset")
        self.write(TX_MODE, 0x00)
        self.write(RX_MODE, 0x00)
        self.write(MOD_WIDTH, 0x26)
        self.write(T_MODE, 0x80)  # the timer starts when a transmission ends
        self.write(T_PRESCALER, 0xA9)  # 13.56 MHz / (2 * 169 + 1): 40 kHz, 25 us a tick
        self.write(T_RELOAD_H, TIMER_RELOAD >> 8)
        self.write(T_RELOAD_L, TIMER_RELOAD & 0xFF)
        self.write(TX_ASK, 0x40)  # 100 % ASK
        self.write(MODE, 0x3D)  # CRC preset 0x6363
        if self.read(TX_CONTROL) & 0x03 != 0x03:
            self.set_bits(TX_CONTROL, 0x03)  # antenna on
        version = self.read(VERSION)
        if version in (0x00, 0xFF):
            raise ReaderError(f"no MFRC522 on the SPI bus (VersionReg {version:02X})")
        self.version = version
        self.errors = 0
        return version

    def transceive(self, data, tx_last_bits=0, rx_align=0, idle=_nothing):
        """Sends `data` (the last byte's low `tx_last_bits` bits only, 0: all 8) and
        receives: (status, bytes, valid bits in the last byte (0: all 8))."""
        self.write(COMMAND, CMD_IDLE)
        self.write(COM_IRQ, 0x7F)  # clear every interrupt flag
        self.write(FIFO_LEVEL, 0x80)  # flush the FIFO
        self.write_many(FIFO_DATA, data)
        framing = (rx_align << 4) | tx_last_bits
        self.write(BIT_FRAMING, framing)
        self.write(COMMAND, CMD_TRANSCEIVE)
        self.write(BIT_FRAMING, framing | 0x80)  # StartSend
        for _ in range(MAX_POLLS):
            irq = self.read(COM_IRQ)
            if irq & IRQ_RX_IDLE:
                break
            if irq & IRQ_TIMER:
                return TIMEOUT, b"", 0
            idle()
        else:
            raise ReaderError("the MFRC522 never finished an exchange")
        error = self.read(ERROR)
        if error & ERR_FATAL:
            return FAILED, b"", 0
        count = self.read(FIFO_LEVEL) & 0x7F
        back = self.read_many(FIFO_DATA, count) if count else b""
        valid = self.read(CONTROL) & 0x07
        if error & ERR_COLLISION:
            return COLLISION, back, valid
        return OK, back, valid

    # ---- the card ----

    def request(self, wake=True, idle=_nothing):
        """WUPA (wake=True: idle and halted cards) or REQA: the ATQA, or None."""
        self.clear_bits(COLL, 0x80)  # ValuesAfterColl = 0: bits after a collision read 0
        status, back, valid = self.transceive(bytes([WUPA if wake else REQA]), 7, 0, idle)
        if status == COLLISION:
            return back or b"\x00\x00"  # several cards answered: there are cards
        if status != OK or len(back) != 2 or valid != 0:
            return None
        return back

    def anticollision(self, level, idle=_nothing):
        """The 4 UID bytes and BCC of cascade `level` (0, 1, 2), resolving collisions by
        following the card with a 1; None if the exchange fails."""
        sel = SELECT[level]
        part = bytearray(5)
        known = 0  # bits of the 32 we know
        for _ in range(33):  # each round learns at least one bit
            whole, bits = known // 8, known % 8
            nvb = ((2 + whole) << 4) | bits
            frame = bytes([sel, nvb]) + bytes(part[: whole + (1 if bits else 0)])
            status, back, _valid = self.transceive(frame, bits, bits, idle)
            if status not in (OK, COLLISION) or not back:
                return None
            if len(back) > 5 - whole:
                return None
            if bits:  # the first byte received completes our partial one
                mask = (0xFF << bits) & 0xFF
                part[whole] = (part[whole] & ~mask & 0xFF) | (back[0] & mask)
            else:
                part[whole] = back[0]
            for i in range(1, len(back)):
                part[whole + i] = back[i]
            if status == COLLISION:
                coll = self.read(COLL)
                if coll & 0x20:  # CollPosNotValid
                    return None
                position = (coll & 0x1F) or 32
                if position <= known:
                    return None
                bit = position - 1
                part[bit // 8] |= 1 << (bit % 8)
                for i in range(bit + 1, 40):  # what came after the collision is not known
                    part[i // 8] &= ~(1 << (i % 8)) & 0xFF
                known = position
                continue
            if whole + len(back) != 5:
                return None
            if part[0] ^ part[1] ^ part[2] ^ part[3] != part[4]:
                return None  # BCC
            return bytes(part)
        return None

    def select(self, level, part, idle=_nothing):
        """SELECT with the level's 4 UID bytes and BCC: the SAK, or None."""
        frame = bytes([SELECT[level], NVB_SELECT]) + bytes(part)
        status, back, valid = self.transceive(frame + crc_a(frame), 0, 0, idle)
        if status != OK or len(back) != 3 or valid != 0:
            return None
        if crc_a(back[:1]) != back[1:3]:
            return None
        return back[0]

    def halt(self, idle=_nothing):
        """HLTA: the card sleeps until the next WUPA. It must not answer."""
        frame = bytes([0x50, 0x00])
        self.transceive(frame + crc_a(frame), 0, 0, idle)

    def read_uid(self, idle=_nothing):
        """The UID of a card in the field (4, 7 or 10 bytes), or None."""
        if self.request(True, idle) is None:
            return None
        uid = bytearray()
        for level in range(3):
            part = self.anticollision(level, idle)
            if part is None:
                self.errors += 1
                return None
            sak = self.select(level, part, idle)
            if sak is None:
                self.errors += 1
                return None
            if sak & SAK_MORE:
                if part[0] != CASCADE_TAG:
                    self.errors += 1
                    return None
                uid.extend(part[1:4])
                continue
            uid.extend(part[0:4])
            self.halt(idle)
            return bytes(uid)
        self.errors += 1
        return None
