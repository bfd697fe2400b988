extension MotionManager {
  /// The one decision between 6D and 9D fusion: what device motion in `frame` is made with, or
  /// the error its start fails with.
  ///
  /// - Parameters:
  ///   - source: The source.
  ///   - frame: The reference frame asked for.
  ///   - override: ``fusionMode`` when set.
  ///   - declination: ``magneticDeclination``.
  /// - Returns: The override, else 9D for the frames that need north and 6D for the arbitrary
  ///   frame.
  /// - Throws: ``MotionManagerError`` `notAvailable` when the fusion or the frame needs a
  ///   magnetometer the source lacks; `trueNorthNotAvailable` for true north without a
  ///   declination.
  static func fusionMode(
    source: any MotionSource, frame: AttitudeReferenceFrame, override: AttitudeEstimator.Mode?,
    declination: Double?
  ) throws(MotionManagerError) -> AttitudeEstimator.Mode {
    let mode = override ?? AttitudeEstimator.Mode(referenceFrame: frame)
    let known = source.sensorsAreKnown
    if source.providesRawSamples {
      _ = try fusionMode(
        for: frame, override: override, sourceName: source.name,
        hasMagnetometer: source.hasMagnetometer || !known)
    } else if known && frame.needsMagnetometer && !source.hasMagnetometer {
      throw missingMagnetometer(source: source.name, frame: frame)
    }
    if frame == .xTrueNorthZVertical && declination == nil {
      throw MotionManagerError(
        .trueNorthNotAvailable, "xTrueNorthZVertical needs magneticDeclination to be set")
    }
    return mode
  }

  /// How device-motion updates in `frame` would be made from this manager's source, with its
  /// ``fusionMode`` and ``magneticDeclination`` as they are now: the same decision the updates
  /// make when they start, for a caller that must know before (which columns a file gets).
  ///
  /// - Parameter frame: The reference frame.
  /// - Returns: `.sixD` or `.nineD` for a source of raw samples; `nil` for a source of fused
  ///   motion, which passes through.
  /// - Throws: ``MotionManagerError`` when updates in `frame` would fail to start.
  public func fusionMode(for frame: AttitudeReferenceFrame) throws(MotionManagerError)
    -> AttitudeEstimator.Mode?
  {
    let (override, declination) = state.withLock { ($0.fusionMode, $0.declination) }
    let mode = try Self.fusionMode(
      source: source, frame: frame, override: override, declination: declination)
    return source.providesRawSamples ? mode : nil
  }
}
