import SwellGeometry

/// The kernel drivers whose motion nodes Swell knows how to orient, told apart by the vendor and
/// product ids (and names) they publish.
///
/// The frame of a controller: held flat and face up in front of the player, like a phone lying on
/// a table with its top away from the player, +x points right, +y away from the player (toward
/// the pad's top edge, where the shoulder buttons are) and +z up out of its face. At rest face up
/// the accelerometer reads +9.81 m/s² on +z and a CoreMotion-style user gets gravity (0, 0, -1).
/// docs/sensors.md has the table of each family's units, axes and timing, with sources.
public enum EvdevDriverFamily: String, CaseIterable, Sendable {
  /// Sony DualSense and DualSense Edge (`hid-playstation`).
  case dualSense
  /// Sony DualShock 4, either driver (`hid-playstation` since Linux 6.2, `hid-sony` before).
  case dualShock4
  /// The DualShock 3 (Sixaxis), `hid-sony`: an accelerometer alone (the driver leaves its
  /// one-axis gyroscope out), `SIXAXIS_ACC_RES_PER_G` 113 over −512...511, no `MSC_TIMESTAMP`.
  case dualShock3
  /// Nintendo Switch Pro Controller (`hid-nintendo`).
  case switchPro
  /// A single left Joy-Con (`hid-nintendo`), in the frame it has on the console: lying face up,
  /// its L/ZL end away from the player.
  case joyConLeft
  /// A single right Joy-Con (`hid-nintendo`), in the frame it has on the console: lying face up,
  /// its R/ZR end away from the player.
  case joyConRight
  /// The Steam Deck's built-in controller (`hid-steam`).
  case steamDeck
  /// Any other motion node: its axes are taken as already in the device frame.
  case generic

  /// USB vendor ids (`drivers/hid/hid-ids.h`).
  enum Vendor {
    /// `USB_VENDOR_ID_SONY`.
    static let sony: UInt16 = 0x054c
    /// `USB_VENDOR_ID_NINTENDO`.
    static let nintendo: UInt16 = 0x057e
    /// `USB_VENDOR_ID_VALVE`.
    static let valve: UInt16 = 0x28de
  }

  /// Recognises the driver family from the node's ids, or failing that its name.
  ///
  /// - Parameter description: The motion node's description.
  public init(description: EvdevDeviceDescription) {
    switch (description.vendor, description.product) {
    // USB_DEVICE_ID_SONY_PS5_CONTROLLER, USB_DEVICE_ID_SONY_PS5_CONTROLLER_2 (Edge).
    case (Vendor.sony, 0x0ce6), (Vendor.sony, 0x0df2): self = .dualSense
    // USB_DEVICE_ID_SONY_PS4_CONTROLLER, _2 and _DONGLE.
    case (Vendor.sony, 0x05c4), (Vendor.sony, 0x09cc), (Vendor.sony, 0x0ba0): self = .dualShock4
    // USB_DEVICE_ID_SONY_PS3_CONTROLLER.
    case (Vendor.sony, 0x0268): self = .dualShock3
    // USB_DEVICE_ID_NINTENDO_PROCON.
    case (Vendor.nintendo, 0x2009): self = .switchPro
    // USB_DEVICE_ID_NINTENDO_JOYCONL / _JOYCONR.
    case (Vendor.nintendo, 0x2006): self = .joyConLeft
    case (Vendor.nintendo, 0x2007): self = .joyConRight
    // USB_DEVICE_ID_STEAM_DECK.
    case (Vendor.valve, 0x1205): self = .steamDeck
    default: self = Self(name: description.name)
    }
  }

  /// The family a device name suggests, for nodes whose ids are unknown (a clone, a
  /// virtual device).
  private init(name: String) {
    let n = name.lowercased()
    if n.contains("dualsense") {
      self = .dualSense
    } else if n.contains("playstation(r)3 controller") {
      self = .dualShock3
    } else if n.contains("sony") && n.contains("wireless controller") {
      self = .dualShock4
    } else if n.contains("pro controller") && n.contains("nintendo") {
      self = .switchPro
    } else if n.contains("left joy-con") {
      self = .joyConLeft
    } else if n.contains("right joy-con") {
      self = .joyConRight
    } else if n.contains("steam deck") {
      self = .steamDeck
    } else {
      self = .generic
    }
  }

  /// How this family's evdev axes turn into Swell's device frame (see docs/sensors.md for the
  /// source of each).
  ///
  /// - `dualSense`, `dualShock4`: `hid-playstation` (and `hid-sony` for the DualShock 4) pass
  ///   the pad's gyroscope and accelerometer words straight to `ABS_RX/RY/RZ` and `ABS_X/Y/Z`
  ///   (`dualsense_parse_report`, `dualshock4_parse_report`), and SDL passes the same words
  ///   unchanged as its sensor axes (`SDL_hidapi_ps5.c`), so the node is in SDL's controller
  ///   frame: ``EvdevAxisMapping/sdlController``.
  /// - `dualShock3`: `hid-sony` (`sixaxis_parse_report`) reports the accelerometer's x as sent
  ///   and swaps and negates its y and z ("Y and Z are swapped and inversed"), and SDL does the
  ///   same to the report's words (`SDL_hidapi_ps3.c`: x, −word 45, −word 43), so this node too
  ///   is in SDL's controller frame: ``EvdevAxisMapping/sdlController``.
  /// - `steamDeck`: `hid-steam` (`steam_do_deck_sensors_event`) turns the Deck's IMU into the
  ///   same frame (ABS_Y = IMU z, ABS_Z = −IMU y, ABS_RY = gyro z, ABS_RZ = −gyro y):
  ///   ``EvdevAxisMapping/sdlController``.
  /// - `switchPro`, `joyConLeft`, `joyConRight`: `hid-nintendo` (`joycon_parse_imu_report`)
  ///   reports x toward the triggers, y to the left, z up out of the buttons, negating the right
  ///   Joy-Con's y and z so that both Joy-Cons and the Pro Controller agree:
  ///   ``EvdevAxisMapping/nintendo``.
  /// - `generic`: ``EvdevAxisMapping/identity``.
  public var axisMapping: EvdevAxisMapping {
    switch self {
    case .dualSense, .dualShock4, .dualShock3, .steamDeck: return .sdlController
    case .switchPro, .joyConLeft, .joyConRight: return .nintendo
    case .generic: return .identity
    }
  }

  /// Whether the driver's `MSC_TIMESTAMP` counts the device's own clock (`false` for
  /// `hid-steam`, which adds a fixed 4000 µs per report whatever the report's real spacing).
  public var hasDeviceClock: Bool { self != .steamDeck }
}

/// One of the six signed axes, for writing an axis mapping as a signed permutation.
public enum EvdevSignedAxis: String, CaseIterable, Hashable, Sendable {
  /// +x of the source frame.
  case plusX
  /// −x of the source frame.
  case minusX
  /// +y of the source frame.
  case plusY
  /// −y of the source frame.
  case minusY
  /// +z of the source frame.
  case plusZ
  /// −z of the source frame.
  case minusZ

  /// The unit vector that picks this axis (with its sign) out of a source vector.
  var row: Vector3 {
    switch self {
    case .plusX: Vector3(1, 0, 0)
    case .minusX: Vector3(-1, 0, 0)
    case .plusY: Vector3(0, 1, 0)
    case .minusY: Vector3(0, -1, 0)
    case .plusZ: Vector3(0, 0, 1)
    case .minusZ: Vector3(0, 0, -1)
    }
  }
}

/// How a motion node's raw axes map to Swell's device frame: one matrix for the accelerometer
/// (`ABS_X`, `ABS_Y`, `ABS_Z` as a vector) and one for the gyroscope (`ABS_RX`, `ABS_RY`,
/// `ABS_RZ`), each taking the evdev vector (already in g or °/s scaled to SI) to the device frame.
///
/// Both are rotations (determinant +1) for every family Swell knows, so a right-handed gyroscope
/// stays right-handed.
public struct EvdevAxisMapping: Hashable, Sendable {
  /// Device-frame accelerometer = `accelerometer` × (ABS_X, ABS_Y, ABS_Z).
  public var accelerometer: Matrix3
  /// Device-frame gyroscope = `gyroscope` × (ABS_RX, ABS_RY, ABS_RZ).
  public var gyroscope: Matrix3

  /// Creates a mapping from two matrices.
  ///
  /// - Parameters:
  ///   - accelerometer: Evdev accelerometer vector to device frame.
  ///   - gyroscope: Evdev gyroscope vector to device frame.
  public init(accelerometer: Matrix3, gyroscope: Matrix3) {
    self.accelerometer = accelerometer
    self.gyroscope = gyroscope
  }

  /// Creates a mapping that applies the same signed permutation to both sensors: device x is
  /// the source's `x` axis, and so on.
  ///
  /// - Parameters:
  ///   - x: The source axis that becomes device +x.
  ///   - y: The source axis that becomes device +y.
  ///   - z: The source axis that becomes device +z.
  public init(x: EvdevSignedAxis, y: EvdevSignedAxis, z: EvdevSignedAxis) {
    let m = Matrix3(rows: x.row, y.row, z.row)
    self.init(accelerometer: m, gyroscope: m)
  }

  /// Axes already in the device frame.
  public static let identity = EvdevAxisMapping(x: .plusX, y: .plusY, z: .plusZ)

  /// SDL's game-controller frame (`SDL_sensor.h`: +x right, +y toward the top of the pad, +z
  /// toward the player, the pad held in front of you) to Swell's (the pad lying face up: +x
  /// right, +y away from the player, +z up out of its face): device = (x, −z, y).
  public static let sdlController = EvdevAxisMapping(x: .plusX, y: .minusZ, z: .plusY)

  /// `hid-nintendo`'s frame (x toward the triggers, y to the left, z up out of the buttons, the
  /// comment in `joycon_parse_imu_report`) to Swell's: device = (−y, x, z).
  public static let nintendo = EvdevAxisMapping(x: .minusY, y: .plusX, z: .plusZ)
}
