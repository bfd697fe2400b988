import Foundation

/// The magnetometer's trust model: decides, once per filter period, how strongly the field
/// measured in the Earth frame may correct the heading.
///
/// A field is **accepted** as the reference only once its norm and dip angle have stayed steady
/// for 5 s of turning at 20 °/s or more: a field that comes from the Earth keeps its norm and
/// dip whatever the device's attitude, while a magnet carried with the device does not. Until
/// then (``State/searching``) nothing is rejected, because there is nothing to compare with, and
/// the heading works with *segments*, stretches of steady field:
///
/// - The heading follows the current segment: a running mean of its heading errors (gain 1/n)
///   for up to the heading time constant, then half gain.
/// - When the field changes **at rest** (a magnet taken away or brought near a still device),
///   the new segment becomes the basis at once, as the more recent field, with a fresh running
///   mean; the old segment's heading is kept as the fallback if it lasted 3 s or more (a magnet
///   brought near in small steps leaves the clean segment before it as the fallback).
/// - When the basis segment's field changes **while the device moves**, the field depended on
///   the attitude, so it was not the Earth's: the heading returns to the fallback and holds
///   (the gyroscope carries it) until a segment is accepted. A segment that begins while the
///   device moves becomes the basis only when it is accepted.
/// - At acceptance the heading restarts its running mean on the accepted field, unless it
///   already rests on that field (the basis is the accepted segment, or a fallback with the
///   same norm and dip).
///
/// So a phone that starts beside a laptop or a speaker takes its heading from the true field
/// within seconds of the magnet's removal, while a magnet attached to a still device just
/// before it moves costs nothing.
///
/// After acceptance the detector follows Laidig & Seel (VQF, Information Fusion 91, 2023): a
/// field that differs from the reference by more than 10 % in norm or 10° in dip (both
/// low-passed over 0.05 s) pauses the heading correction; the reference adapts slowly (20 s)
/// while undisturbed; a new field is accepted after it has been steady for 20 s of turning at
/// 20 °/s or more; after 60 s of rejection, corrections resume at half gain.
@usableFromInline
struct MagneticReference: Sendable {
  /// Where the reference stands.
  @usableFromInline
  enum State: Sendable, Hashable {
    /// No field accepted yet: the heading follows the current field (fast start, then half
    /// gain); nothing is rejected.
    case searching
    /// The field agrees with the accepted reference: full gain (after 0.5 s of agreement).
    case undisturbed
    /// The field disagrees with the reference: no heading correction (half gain after 60 s).
    case disturbed
  }

  // MARK: Constants (physical units)
  /// Whether disturbances are detected at all; without, every field corrects at full gain.
  @usableFromInline let rejectsDisturbances: Bool
  /// Time constant of the current norm and dip, seconds.
  @usableFromInline let currentTau = 0.05
  /// Time constant of the reference's (and a candidate's) adaptation, seconds.
  @usableFromInline let referenceTau = 20.0
  /// Largest relative difference of the norm from the reference that counts as the same field.
  @usableFromInline let normThreshold = 0.1
  /// Largest difference of the dip angle from the reference that counts as the same field, rad.
  @usableFromInline let dipThreshold = 10 * Double.pi / 180
  /// Time of steady field while turning (at `newFieldMinimumRate` or more) before a first field
  /// is accepted, seconds: at least 100° of turning, enough to move a field carried with the
  /// device by most of its strength relative to the Earth's (VQF's `magNewFirstTime`).
  @usableFromInline let firstFieldTime = 5.0
  /// How many times the steadiness thresholds the field must move, while the device moves, away
  /// from the field the heading rests on to show that the latter was not the Earth's (smaller
  /// changes are a room's inhomogeneity: BROAD's reads 2-4 µT stronger where the motion is).
  @usableFromInline let falsificationFactor = 2.0
  /// How long a new field must last while the device is still before the heading follows it
  /// (and how long the old one must have lasted to be kept as the fallback), seconds: a magnet
  /// moved near a still device changes the field in steps of a second or less, and a device
  /// picked up moves within a second or two of the field's change.
  @usableFromInline let adoptionTime = 3.0
  /// Time of steady field while turning before a new field replaces the reference, seconds.
  @usableFromInline let newFieldTime = 20.0
  /// Rate above which the time of a new field counts, rad/s (20 °/s).
  @usableFromInline let newFieldMinimumRate = 20 * Double.pi / 180
  /// Agreement time before a field counts as undisturbed again, seconds.
  @usableFromInline let minimumUndisturbedTime = 0.5
  /// Rejection time after which corrections resume at reduced gain, seconds.
  @usableFromInline let maximumRejectionTime = 60.0
  /// The gain reduction while searching and after long rejection; also how much faster the
  /// rejection timer runs down while undisturbed.
  @usableFromInline let reductionFactor = 2.0

  // MARK: Coefficients for the block duration
  @usableFromInline var kCurrent = 1.0
  @usableFromInline var kReference = 0.0
  @usableFromInline var kHeading = 0.0
  @usableFromInline var headingTau = 0.0

  // MARK: State
  @usableFromInline var state = State.searching
  @usableFromInline var normLp = 0.0
  @usableFromInline var dipLp = 0.0
  @usableFromInline var referenceNorm = 0.0
  @usableFromInline var referenceDip = 0.0
  @usableFromInline var candidateNorm = -1.0
  @usableFromInline var candidateDip = 0.0
  /// Time the candidate has been steady while turning at `newFieldMinimumRate`, seconds.
  @usableFromInline var candidateTime = 0.0
  /// Time since the candidate began (its segment's length so far), seconds.
  @usableFromInline var candidateAge = 0.0
  /// Whether the candidate appeared while the device was still and may become the basis.
  @usableFromInline var candidatePending = false
  @usableFromInline var undisturbedTime = 0.0
  @usableFromInline var rejectionTime = 0.0
  /// Whether the heading currently follows the current segment (searching only).
  @usableFromInline var basisIsCurrent = true
  /// The heading (half-angle cos, sin) of the last segment that was the basis before the
  /// current one, and that segment's norm (µT, −1 when there is none) and dip (radians).
  @usableFromInline var fallbackCos = 1.0
  @usableFromInline var fallbackSin = 0.0
  @usableFromInline var fallbackNorm = -1.0
  @usableFromInline var fallbackDip = 0.0
  /// The fallback's heading updates and their time in its fast convergence.
  @usableFromInline var fallbackUpdates = 0.0
  @usableFromInline var fallbackTime = 0.0
  /// The field the heading rests on while searching: the mean of the fields it was corrected
  /// toward, weighted as the heading weighted them (norm µT, dip radians), and the time since
  /// that basis began, seconds.
  @usableFromInline var basisNorm = 0.0
  @usableFromInline var basisDip = 0.0
  @usableFromInline var basisAge = 0.0
  /// Heading updates and their time since the (re)start of the fast convergence.
  @usableFromInline var convergenceUpdates = 0.0
  @usableFromInline var convergenceTime = 0.0

  @usableFromInline
  init(rejectsDisturbances: Bool) {
    self.rejectsDisturbances = rejectsDisturbances
  }

  /// True once a field has been accepted as the reference.
  @usableFromInline var hasReference: Bool { state != .searching }

  /// Sets the gains per update (one update per filter period).
  ///
  /// - Parameters:
  ///   - period: The nominal duration of a filter period, seconds.
  ///   - headingGain: The heading correction gain per period at full trust.
  ///   - headingTimeConstant: Its time constant, seconds (the length of the fast start).
  @usableFromInline
  mutating func setCoefficients(
    period: Double, headingGain: Double, headingTimeConstant: Double
  ) {
    let t = period
    kCurrent = 1 - exp(-t / currentTau)
    kReference = 1 - exp(-t / referenceTau)
    kHeading = headingGain
    headingTau = headingTimeConstant
  }

  /// Starts with the first field (norm µT, dip radians): the candidate, not yet a reference.
  @usableFromInline
  mutating func start(norm: Double, dip: Double) {
    normLp = norm
    dipLp = dip
    candidateNorm = norm
    candidateDip = dip
    basisNorm = norm
    basisDip = dip
    convergenceUpdates = 1
    convergenceTime = 0
  }

  /// What the heading should do with one block's field.
  @usableFromInline
  struct Decision: Sendable {
    /// The fraction of the heading error to correct (0 ... 1).
    @usableFromInline var gain = 0.0
    /// A heading (half-angle cos, sin) to return to before correcting, or `nil`.
    @usableFromInline var restore: (cos: Double, sin: Double)?
  }

  /// Takes one block's field and decides the heading correction.
  ///
  /// - Parameters:
  ///   - norm: The field's norm, µT.
  ///   - dip: Its dip angle, radians (positive up).
  ///   - duration: The block's duration, seconds.
  ///   - rate: The device's rotation rate, rad/s.
  ///   - atRest: Whether the rest detector finds the device still.
  ///   - heading: The current heading (half-angle cos, sin).
  /// - Returns: The gain, and a heading to return to first.
  @usableFromInline
  mutating func update(
    norm: Double, dip: Double, duration: Double, rate: Double, atRest: Bool,
    heading: (cos: Double, sin: Double)
  ) -> Decision {
    normLp += kCurrent * (norm - normLp)
    dipLp += kCurrent * (dip - dipLp)
    var d = Decision()
    if !rejectsDisturbances {
      state = .undisturbed
      d.gain = kHeading
    } else {
      switch state {
      case .searching:
        d = searching(duration: duration, rate: rate, atRest: atRest, heading: heading)
      case .undisturbed, .disturbed:
        d.gain = tracking(duration: duration, rate: rate)
      }
    }
    if d.gain > 0 && convergenceTime < headingTau {
      // A running mean of the first heading errors after a (re)start: fast, unbiased.
      convergenceUpdates += 1
      convergenceTime += duration
      d.gain = max(d.gain, 1 / convergenceUpdates)
    }
    if state == .searching && basisIsCurrent {
      basisNorm += d.gain * (normLp - basisNorm)
      basisDip += d.gain * (dipLp - basisDip)
    }
    return d
  }

  /// True when the current field matches (norm, dip) within the thresholds times `tolerance`.
  @inlinable
  func matches(norm: Double, dip: Double, tolerance: Double = 1) -> Bool {
    abs(normLp - norm) < tolerance * normThreshold * norm
      && abs(dipLp - dip) < tolerance * dipThreshold
  }

  private mutating func searching(
    duration: Double, rate: Double, atRest: Bool, heading: (cos: Double, sin: Double)
  ) -> Decision {
    var d = Decision()
    candidateAge += duration
    basisAge += duration
    if matches(norm: candidateNorm, dip: candidateDip) {
      candidateNorm += kReference * (normLp - candidateNorm)
      candidateDip += kReference * (dipLp - candidateDip)
      if rate >= newFieldMinimumRate { candidateTime += duration }
      if candidateTime >= firstFieldTime {
        accept(decision: &d)
        return d
      }
      if candidatePending {
        if !atRest {
          candidatePending = false
        } else if candidateAge >= adoptionTime {
          adoptCandidate(heading: heading)
        }
      }
    } else {
      // A field that appears while the device is still may be the Earth's, once it lasts.
      resetCandidate()
      candidatePending = atRest
    }
    if basisIsCurrent && !atRest
      && !matches(norm: basisNorm, dip: basisDip, tolerance: falsificationFactor)
    {
      // Far from the field the heading rests on, and the device is moving: either that field
      // depended on the place or the attitude (a magnet nearby or carried along), or the field
      // here is disturbed. Stop following and hold the heading (the gyroscope carries it);
      // acceptance decides later which field was the Earth's.
      basisIsCurrent = false
    }
    d.gain = basisIsCurrent ? kHeading / reductionFactor : 0
    return d
  }

  /// Makes the candidate, steady at rest for `adoptionTime`, the field the heading follows,
  /// keeping the old heading as the fallback when its field lasted.
  private mutating func adoptCandidate(heading: (cos: Double, sin: Double)) {
    if basisAge >= adoptionTime {
      fallbackUpdates = convergenceUpdates
      fallbackTime = convergenceTime
      fallbackCos = heading.cos
      fallbackSin = heading.sin
      fallbackNorm = basisNorm
      fallbackDip = basisDip
    }
    basisIsCurrent = true
    basisNorm = candidateNorm
    basisDip = candidateDip
    basisAge = candidateAge
    candidatePending = false
    convergenceUpdates = 0
    convergenceTime = 0
  }

  /// Accepts the candidate as the reference and decides which heading goes on from it: the
  /// current one if its field is the accepted one (seen a little elsewhere), else the
  /// fallback's if that matches, else a fresh start on the accepted field.
  private mutating func accept(decision d: inout Decision) {
    let onBasis = matches(
      norm: basisNorm, dip: basisDip, of: candidateNorm, candidateDip,
      tolerance: falsificationFactor)
    if !onBasis {
      if fallbackNorm >= 0
        && matches(
          norm: fallbackNorm, dip: fallbackDip, of: candidateNorm, candidateDip, tolerance: 1)
      {
        restoreFallback(&d)
      } else {
        convergenceUpdates = 0
        convergenceTime = 0
      }
    }
    referenceNorm = candidateNorm
    referenceDip = candidateDip
    state = .undisturbed
    undisturbedTime = minimumUndisturbedTime
    rejectionTime = 0
    basisIsCurrent = true
    fallbackNorm = -1
    resetCandidate()
    d.gain = kHeading
  }

  /// Returns to the fallback's heading, its field and its convergence.
  private mutating func restoreFallback(_ d: inout Decision) {
    d.restore = (fallbackCos, fallbackSin)
    basisNorm = fallbackNorm
    basisDip = fallbackDip
    fallbackNorm = -1
    convergenceUpdates = fallbackUpdates
    convergenceTime = fallbackTime
  }

  /// True when the field (norm µT, dip rad) matches the other within the thresholds times
  /// `tolerance`.
  private func matches(
    norm: Double, dip: Double, of otherNorm: Double, _ otherDip: Double, tolerance: Double
  ) -> Bool {
    abs(norm - otherNorm) < tolerance * normThreshold * otherNorm
      && abs(dip - otherDip) < tolerance * dipThreshold
  }

  private mutating func resetCandidate() {
    candidateNorm = normLp
    candidateDip = dipLp
    candidateTime = 0
    candidateAge = 0
  }

  private mutating func tracking(duration: Double, rate: Double) -> Double {
    var gain = 0.0
    if matches(norm: referenceNorm, dip: referenceDip) {
      undisturbedTime += duration
      state = .undisturbed
      referenceNorm += kReference * (normLp - referenceNorm)
      referenceDip += kReference * (dipLp - referenceDip)
      if undisturbedTime >= minimumUndisturbedTime {
        gain = kHeading
        rejectionTime = max(rejectionTime - reductionFactor * duration, 0)
      }
      candidateNorm = -1
      candidateTime = 0
      return gain
    }
    state = .disturbed
    undisturbedTime = 0
    rejectionTime += duration
    if rejectionTime > maximumRejectionTime {
      gain = kHeading / reductionFactor
    }
    // A new homogeneous field? It must stay steady while the device turns.
    if candidateNorm >= 0 && matches(norm: candidateNorm, dip: candidateDip) {
      candidateNorm += kCurrent * (normLp - candidateNorm)
      candidateDip += kCurrent * (dipLp - candidateDip)
      if rate >= newFieldMinimumRate { candidateTime += duration }
      if candidateTime >= newFieldTime {
        referenceNorm = candidateNorm
        referenceDip = candidateDip
        state = .undisturbed
        rejectionTime = 0
        undisturbedTime = minimumUndisturbedTime
        candidateNorm = -1
        candidateTime = 0
      }
    } else {
      candidateNorm = normLp
      candidateDip = dipLp
      candidateTime = 0
    }
    return gain
  }
}
