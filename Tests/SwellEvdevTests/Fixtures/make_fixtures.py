#!/usr/bin/env python3
"""Writes the evemu fixtures of Tests/SwellEvdevTests from a known motion.

Independent of Swell's code: the descriptions are the numbers each kernel driver publishes
(cited per family below) and the events are what that driver would send for the motion:

- frame 0: at rest face up: accelerometer (0, 0, +1) g, gyroscope 0 (every axis is sent);
- frames 1 ... N-2: nothing changes, so the kernel sends only MSC_TIMESTAMP and SYN_REPORT
  (the input core drops unchanged ABS values), except a yaw turn of +30 deg/s about the
  device's z from frame N/4 to N/2 (one axis changes at its start and at its end);
- frame N-1: a probe: accelerometer (0.25, -0.5, 0.75) g, gyroscope (10, -20, 40) deg/s in the
  device frame, every axis sent.

Device frame (docs/sensors.md): +x right, +y away from the player, +z up out of the face.
Evdev values are the device vector written in the driver's frame:
- SDL controller frame (hid-playstation, hid-sony, hid-steam): (x, y, z)_evdev = (dx, dz, -dy);
- hid-nintendo frame (x toward the triggers, y left, z up): (x, y, z)_evdev = (dy, -dx, dz).

Run from this folder: python3 make_fixtures.py
"""

SYN, ABS, MSC = 0, 3, 4


def sdl(v):
    return (v[0], v[2], -v[1])


def nintendo(v):
    return (v[1], -v[0], v[2])


FAMILIES = [
    # name, file, N:, bus, vendor, product, version, accel (range, fuzz, res),
    # gyro (range, fuzz, res), frame, msc position, timing
    dict(file="dualsense.evemu",
         # hid-playstation: ps_allocate_input_dev(hdev, "Motion Sensors"); ps_sensors_create
         # with DS_ACC_RANGE = 4*DS_ACC_RES_PER_G (8192), DS_GYRO_RANGE = 2048*
         # DS_GYRO_RES_PER_DEG_S (1024), fuzz 16; MSC_TIMESTAMP after the axes.
         name="Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors",
         bus=0x03, vendor=0x054c, product=0x0ce6, version=0x8111,
         accel=(32768, 16, 8192), gyro=(2097152, 16, 1024), frame=sdl, msc="after",
         rate=250, device_start=4294963000, device_step=4000, jitter=[0, 300, 100, 200],
         uniq="a0:ab:51:12:34:56"),
    dict(file="dualshock4-playstation.evemu",
         # hid-playstation DualShock 4: DS4_ACC_RES_PER_G 8192, DS4_GYRO_RES_PER_DEG_S 1024,
         # ranges 4*8192 and 2048*1024; MSC_TIMESTAMP after the axes.
         name="Sony Interactive Entertainment Wireless Controller Motion Sensors",
         bus=0x03, vendor=0x054c, product=0x09cc, version=0x8111,
         accel=(32768, 16, 8192), gyro=(2097152, 16, 1024), frame=sdl, msc="after",
         rate=250, device_start=0, device_step=4000, jitter=[0, 250, 50, 150],
         uniq="1c:a0:b8:12:34:56"),
    dict(file="dualshock4-sony.evemu",
         # hid-sony sony_register_sensors: range DS4_ACC_RES_PER_G*4, DS4_GYRO_RES_PER_DEG_S
         # *2048, fuzz 16; dualshock4_parse_report sends MSC_TIMESTAMP before the axes.
         name="Sony Interactive Entertainment Wireless Controller Motion Sensors",
         bus=0x03, vendor=0x054c, product=0x09cc, version=0x0100,
         accel=(32768, 16, 8192), gyro=(2097152, 16, 1024), frame=sdl, msc="before",
         rate=250, device_start=2147481000, device_step=4000, jitter=[0, 200, 400, 100],
         uniq="1c:a0:b8:65:43:21"),
    dict(file="switch-pro.evemu",
         # hid-nintendo: "%s (IMU)"; JC_IMU_MAX_ACCEL_MAG 32767, JC_IMU_ACCEL_FUZZ 10,
         # JC_IMU_ACCEL_RES_PER_G 4096; JC_IMU_MAX_GYRO_MAG 32767000, JC_IMU_GYRO_FUZZ 10,
         # JC_IMU_GYRO_RES_PER_DPS 14247; three samples per report, MSC before the axes.
         name="Nintendo Switch Pro Controller (IMU)",
         bus=0x05, vendor=0x057e, product=0x2009, version=0x8001,
         accel=(32767, 10, 4096), gyro=(32767000, 10, 14247), frame=nintendo, msc="before",
         rate=200, per_report=3, device_start=1000, device_step=5000, jitter=[0, 400, 200],
         uniq="98:b6:e9:12:34:56"),
    dict(file="joycon-left.evemu",
         name="Nintendo Switch Left Joy-Con (IMU)",
         bus=0x05, vendor=0x057e, product=0x2006, version=0x8001,
         accel=(32767, 10, 4096), gyro=(32767000, 10, 14247), frame=nintendo, msc="before",
         rate=200, per_report=3, device_start=4294960000, device_step=5000, jitter=[0, 300],
         uniq="98:b6:e9:aa:bb:01"),
    dict(file="joycon-right.evemu",
         # The right Joy-Con's y and z are negated by the driver, so its evdev frame is the
         # same as the left one's.
         name="Nintendo Switch Right Joy-Con (IMU)",
         bus=0x05, vendor=0x057e, product=0x2007, version=0x8001,
         accel=(32767, 10, 4096), gyro=(32767000, 10, 14247), frame=nintendo, msc="before",
         rate=200, per_report=3, device_start=500, device_step=5000, jitter=[0, 100, 500],
         uniq="98:b6:e9:aa:bb:02"),
    dict(file="steam-deck.evemu",
         # hid-steam: "Steam Deck Motion Sensors"; STEAM_DECK_ACCEL_RANGE 32768, _FUZZ 32,
         # _RES_PER_G 16384; STEAM_DECK_GYRO_RANGE 32768, _FUZZ 1, _RES_PER_DPS 16;
         # sensor_timestamp_us += 4000 per report, MSC before the axes; reports arrive every
         # 4 ms on average with +/- 4 ms of jitter.
         name="Steam Deck Motion Sensors",
         bus=0x03, vendor=0x28de, product=0x1205, version=0x0111,
         accel=(32768, 32, 16384), gyro=(32768, 1, 16), frame=sdl, msc="before",
         rate=250, device_start=4000, device_step=4000,
         intervals=[2000, 6000, 3000, 5000, 4500, 3500], uniq="FVAA12345678"),
]


def mask_line(kind, bits):
    b = [0] * 8
    for bit in bits:
        b[bit // 8] |= 1 << (bit % 8)
    return kind + " " + " ".join("%02x" % x for x in b)


def write(f):
    out = ["# EVEMU 1.3", "# Fixture for Swell's SwellEvdevTests; see make_fixtures.py.",
           "# Input device name: \"%s\"" % f["name"],
           "# Input device uniq: \"%s\"" % f["uniq"],
           "N: " + f["name"],
           "I: %04x %04x %04x %04x" % (f["bus"], f["vendor"], f["product"], f["version"]),
           mask_line("P:", [6]),
           mask_line("B: 00", [0, 1, 3]),
           mask_line("B: 03", [0, 1, 2, 3, 4, 5]),
           mask_line("B: 04", [5])]
    ar, af, ares = f["accel"]
    gr, gf, gres = f["gyro"]
    for code in range(3):
        out.append("A: %02x %d %d %d 0 %d" % (code, -ar, ar, af, ares))
    for code in range(3, 6):
        out.append("A: %02x %d %d %d 0 %d" % (code, -gr, gr, gf, gres))
    out.append("################################")
    out.append("#      Waiting for events      #")
    out.append("################################")

    n = f["rate"]  # one second of frames
    per_report = f.get("per_report", 1)
    frame = f["frame"]
    # Arrival (event) times in microseconds, relative as evemu-record writes them.
    times = []
    t = 1
    if "intervals" in f:
        for k in range(n):
            times.append(t)
            t += f["intervals"][k % len(f["intervals"])]
    else:
        step = 1_000_000 * per_report // f["rate"]
        reports = (n + per_report - 1) // per_report
        for r in range(reports):
            arrival = 1 + r * step + f["jitter"][r % len(f["jitter"])]
            times.extend([arrival] * per_report)
        times = times[:n]

    def raw_accel(g):
        return [round(c * ares) for c in frame(g)]

    def raw_gyro(d):
        return [round(c * gres) for c in frame(d)]

    current = [None] * 6
    for k in range(n):
        if k == n - 1:
            acc, gyr = (0.25, -0.5, 0.75), (10.0, -20.0, 40.0)
        else:
            acc = (0.0, 0.0, 1.0)
            yaw = 30.0 if n // 4 <= k < n // 2 else 0.0
            gyr = (0.0, 0.0, yaw)
        values = raw_accel(acc) + raw_gyro(gyr)
        device = (f["device_start"] + k * f["device_step"]) % (1 << 32)
        signed = device - (1 << 32) if device >= (1 << 31) else device
        tt = times[k]
        stamp = "E: %d.%06d" % (tt // 1_000_000, tt % 1_000_000)
        lines = []
        if f["msc"] == "before":
            lines.append("%s %04x %04x %d" % (stamp, MSC, 5, signed))
        for code in range(6):
            if k == n - 1 or current[code] != values[code]:
                lines.append("%s %04x %04x %d" % (stamp, ABS, code, values[code]))
                current[code] = values[code]
        if f["msc"] == "after":
            lines.append("%s %04x %04x %d" % (stamp, MSC, 5, signed))
        lines.append("%s %04x %04x %d" % (stamp, SYN, 0, 0))
        out.extend(lines)
    with open(f["file"], "w") as fh:
        fh.write("\n".join(out) + "\n")


for family in FAMILIES:
    write(family)
