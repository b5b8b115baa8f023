"""Card readers over serial: RDM6300 (125 kHz), PN532 (13.56 MHz, HSU) and the project's
own Pico firmware, behind one interface that reports cards presented and removed."""
