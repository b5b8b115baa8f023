"""A register-level fake MFRC522 with fake ISO 14443A cards, for mfrc522.py's tests.

It speaks SPI as the chip does (address byte `reg << 1`, bit 7 for a read; a read returns
one byte per address sent after the first), keeps the registers, the FIFO and ComIrqReg's
flags, and on Transceive + StartSend plays the frame to the cards in its field:

- REQA/WUPA (7 bits): idle cards (and halted ones, for WUPA) answer ATQA; a card left
  ready or active by an unfinished read goes back to idle without a word (ISO 14443-3);
- anticollision (SEL, NVB < 0x70): ready cards at that cascade level whose UID bits match
  the bits sent answer the rest of their 40 bits (4 UID bytes and BCC); where the cards
  disagree the chip sees a collision: CollErr, CollPos (counted from the first bit of the
  level's UID part), and bits from there on read as 0;
- SELECT (NVB 0x70, CRC_A): the matching card answers SAK + CRC_A; with SAK's cascade bit
  it waits for the next level, otherwise it is active;
- HLTA: an active card halts, without answering.

`latency` ComIrqReg reads pass before an answer's flags show (so `idle` gets called);
`noise` exchanges in a row (after `noise_after` good ones) fail with a protocol error.
Pure; runs under MicroPython.
"""

from mfrc522 import (
    BIT_FRAMING,
    CMD_SOFT_RESET,
    CMD_TRANSCEIVE,
    COLL,
    COM_IRQ,
    COMMAND,
    CONTROL,
    ERROR,
    FIFO_DATA,
    FIFO_LEVEL,
    SELECT,
    TX_CONTROL,
    VERSION,
    crc_a,
)

CT = 0x88


def _bits(data, count):
    """The first `count` bits of `data`, each byte least significant bit first (as sent)."""
    out = []
    for i in range(count):
        out.append((data[i // 8] >> (i % 8)) & 1)
    return out


class FakeCard:
    def __init__(self, uid, sak=0x00):
        uid = bytes(uid)
        if len(uid) not in (4, 7, 10):
            raise ValueError("a UID has 4, 7 or 10 bytes")
        self.uid = uid
        if len(uid) == 4:
            parts = [uid]
        elif len(uid) == 7:
            parts = [bytes([CT]) + uid[0:3], uid[3:7]]
        else:
            parts = [bytes([CT]) + uid[0:3], bytes([CT]) + uid[3:6], uid[6:10]]
        self.parts = [p + bytes([p[0] ^ p[1] ^ p[2] ^ p[3]]) for p in parts]
        self.sak = sak
        self.atqa = bytes([{4: 0x04, 7: 0x44, 10: 0x84}[len(uid)], 0x00])
        self.state = "idle"
        self.level = 0
        self.selects = 0


class FakeChip:
    def __init__(self, cards=(), version=0x92, latency=0):
        self.cards = list(cards)
        self.version = version
        self.latency = latency
        self.noise = 0
        self.noise_after = 0
        """Exchanges that still go well before the `noise` ones start."""
        self.exchanges = []
        """Every frame the chip sent to the field: (bytes, tx_last_bits)."""
        self.transfers = 0
        self.regs = bytearray(64)
        self.fifo = []
        self._pending_irq = 0
        self._wait = 0
        self.reset()

    def reset(self):
        for i in range(64):
            self.regs[i] = 0
        self.regs[COMMAND] = 0x20
        self.regs[TX_CONTROL] = 0x80  # antenna off
        self.regs[COLL] = 0x80  # ValuesAfterColl set, as after power-up
        self.regs[VERSION] = self.version
        self.fifo = []

    def remove(self, card):
        """The card leaves the field (and loses power: back to idle)."""
        self.cards.remove(card)
        card.state = "idle"

    def add(self, card):
        card.state = "idle"
        self.cards.append(card)

    # ---- SPI ----

    def transfer(self, data):
        self.transfers += 1
        data = bytes(data)
        if data[0] & 0x80:
            out = bytearray([0])
            for address in data[:-1]:
                out.append(self._read((address >> 1) & 0x3F))
            return bytes(out)
        reg = (data[0] >> 1) & 0x3F
        for value in data[1:]:
            self._write(reg, value)
        return bytes(len(data))

    def _read(self, reg):
        if reg == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == FIFO_LEVEL:
            return len(self.fifo)
        if reg == COM_IRQ:
            if self._pending_irq:
                if self._wait > 0:
                    self._wait -= 1
                else:
                    self.regs[COM_IRQ] |= self._pending_irq
                    self._pending_irq = 0
            return self.regs[COM_IRQ]
        return self.regs[reg]

    def _write(self, reg, value):
        if reg == FIFO_DATA:
            self.fifo.append(value)
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self.fifo = []
        elif reg == COM_IRQ:
            if value & 0x80:
                self.regs[COM_IRQ] |= value & 0x7F
            else:
                self.regs[COM_IRQ] &= ~value & 0xFF
        elif reg == COMMAND:
            if value & 0x0F == CMD_SOFT_RESET:
                self.reset()
            else:
                self.regs[COMMAND] = value
        elif reg == BIT_FRAMING:
            self.regs[BIT_FRAMING] = value & 0x7F
            if value & 0x80 and self.regs[COMMAND] & 0x0F == CMD_TRANSCEIVE:
                self._exchange()
        elif reg != VERSION:
            self.regs[reg] = value

    # ---- the field ----

    def _exchange(self):
        frame = bytes(self.fifo)
        self.fifo = []
        framing = self.regs[BIT_FRAMING]
        tx_last = framing & 0x07
        rx_align = (framing >> 4) & 0x07
        self.exchanges.append((frame, tx_last))
        self.regs[ERROR] = 0
        self._wait = self.latency
        if self.noise and self.noise_after:
            self.noise_after -= 1
        elif self.noise:
            self.noise -= 1
            self.regs[ERROR] = 0x01  # ProtocolErr
            self._pending_irq = 0x30
            return
        if self.regs[TX_CONTROL] & 0x03 != 0x03:
            self._pending_irq = 0x01  # antenna off: nobody answers, the timer runs out
            return
        answers, offset = self._answers(frame, tx_last)
        if not answers:
            self._pending_irq = 0x01
            return
        self._receive(answers, offset, rx_align)

    def _answers(self, frame, tx_last):
        """The bit strings the cards send back, and the bit offset of the first (for
        CollPos: the number of UID bits the reader already sent)."""
        if tx_last == 7 and len(frame) == 1 and frame[0] in (0x26, 0x52):
            out = []
            for card in self.cards:
                if card.state == "idle" or (card.state == "halt" and frame[0] == 0x52):
                    card.state = "ready"
                    card.level = 0
                    out.append(_bits(card.atqa, 16))
                elif card.state in ("ready", "active"):
                    card.state = "idle"  # not a command for this state: silently back to idle
            return out, 0
        if len(frame) >= 2 and frame[0] in SELECT:
            level = SELECT.index(frame[0])
            nvb = frame[1]
            if nvb == 0x70 and len(frame) == 9 and tx_last == 0:
                return self._select(level, frame), 0
            known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0F)
            sent = _bits(frame[2:], known)
            out = []
            for card in self.cards:
                if card.state != "ready" or card.level != level:
                    continue
                bits = _bits(card.parts[level], 40)
                if bits[:known] == sent:
                    out.append(bits[known:])
            return out, known
        if frame == bytes([0x50, 0x00]) + crc_a(bytes([0x50, 0x00])):
            for card in self.cards:
                if card.state == "active":
                    card.state = "halt"
            return [], 0
        for card in self.cards:
            if card.state != "halt":
                card.state = "idle"
        return [], 0

    def _select(self, level, frame):
        if crc_a(frame[:7]) != frame[7:9]:
            return []
        out = []
        for card in self.cards:
            if card.state != "ready" or card.level != level:
                continue
            if card.parts[level] != frame[2:7]:
                card.state = "idle"
                continue
            more = level + 1 < len(card.parts)
            sak = 0x04 if more else card.sak
            if more:
                card.level = level + 1
            else:
                card.state = "active"
                card.selects += 1
            out.append(_bits(bytes([sak]) + crc_a(bytes([sak])), 24))
        return out

    def _receive(self, answers, offset, rx_align):
        length = len(answers[0])
        bits = []
        collision = None
        for i in range(length):
            values = [answer[i] for answer in answers]
            if collision is None and min(values) != max(values):
                collision = i
            bits.append(0 if collision is not None and not self.regs[COLL] & 0x80 else values[0])
        if collision is not None and self.regs[COLL] & 0x80:
            for i in range(collision, length):
                bits[i] = 1  # ValuesAfterColl: whatever the cards sent, here all ones
        total = rx_align + length
        data = [0] * ((total + 7) // 8)
        for i in range(rx_align):
            data[0] |= 1 << i  # below RxAlign: not received, garbage the driver must mask
        for i, bit in enumerate(bits):
            if bit:
                position = rx_align + i
                data[position // 8] |= 1 << (position % 8)
        self.fifo = data
        self.regs[CONTROL] = (self.regs[CONTROL] & 0xF8) | (total % 8)
        if collision is not None:
            self.regs[ERROR] |= 0x08
            position = offset + collision + 1
            if position > 32:
                self.regs[COLL] = (self.regs[COLL] & 0x80) | 0x20
            else:
                self.regs[COLL] = (self.regs[COLL] & 0x80) | (position & 0x1F)
        self._pending_irq = 0x30
