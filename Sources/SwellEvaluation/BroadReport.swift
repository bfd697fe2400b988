import Foundation
import SwellMotion

extension BroadEvaluation {
  /// The results as the text table of `swell evaluate --broad`: one row per trial, per category
  /// and the mean, each `total / heading / inclination` in degrees, 9D then 6D (heading aligned).
  ///
  /// - Parameter title: The first line (what was evaluated, at what rate, with what disturbance).
  /// - Returns: The text, lines ending in line breaks.
  public func tableText(title: String) -> String {
    let f2 = { (v: Double) in String(format: "%.2f", v) }
    let triple = { (e: OrientationRMSE) in
      "\(f2(e.totalDegrees)) / \(f2(e.headingDegrees)) / \(f2(e.inclinationDegrees))"
    }
    var out = title + "\n"
    out += pad("trial", 42) + pad("9D", 22) + "6D (heading aligned)\n"
    for t in trials {
      out += pad(t.name, 42) + pad(triple(t.nineD), 22) + triple(t.sixD) + "\n"
    }
    out += "\n"
    for c in BroadCategory.allCases {
      if let m9 = mean(category: c, mode: .nineD), let m6 = mean(category: c, mode: .sixD) {
        out += pad("category " + c.rawValue, 42) + pad(triple(m9), 22) + triple(m6) + "\n"
      }
    }
    if let m9 = mean(mode: .nineD), let m6 = mean(mode: .sixD) {
      out += pad("mean of \(trials.count) trials", 42) + pad(triple(m9), 22) + triple(m6) + "\n"
    }
    return out
  }

  /// The results as one JSON object: `trials` (name, category, `9d`, `6d`), `categories` and
  /// `mean`, each error as `{"total", "heading", "inclination"}` in degrees.
  ///
  /// - Returns: The JSON text, without a line break.
  public func jsonText() -> String {
    func triple(_ e: OrientationRMSE) -> String {
      "{\"total\": \(number(e.totalDegrees)), \"heading\": \(number(e.headingDegrees)), "
        + "\"inclination\": \(number(e.inclinationDegrees))}"
    }
    let parts = trials.map { t in
      "{\"trial\": \"\(t.name)\", \"category\": \"\(t.category.rawValue)\", "
        + "\"9d\": \(triple(t.nineD)), \"6d\": \(triple(t.sixD))}"
    }
    var categories: [String] = []
    for c in BroadCategory.allCases {
      if let m9 = mean(category: c, mode: .nineD), let m6 = mean(category: c, mode: .sixD) {
        categories.append("\"\(c.rawValue)\": {\"9d\": \(triple(m9)), \"6d\": \(triple(m6))}")
      }
    }
    let m9 = mean(mode: .nineD).map(triple) ?? "null"
    let m6 = mean(mode: .sixD).map(triple) ?? "null"
    return "{\"trials\": [\(parts.joined(separator: ", "))], "
      + "\"categories\": {\(categories.joined(separator: ", "))}, "
      + "\"mean\": {\"9d\": \(m9), \"6d\": \(m6)}}"
  }
}

extension BroadSensitivity {
  /// The spread of the total RMSE per trial, per category and of the mean, 9D then 6D, as the
  /// text of `swell evaluate --broad --sensitivity`.
  ///
  /// - Returns: The text, lines ending in line breaks.
  public func tableText() -> String {
    let f2 = { (v: Double) in String(format: "%.2f", v) }
    let row = { (name: String, s: Spread) in
      pad(name, 42) + pad(f2(s.base), 7) + pad(f2(s.minimum), 7) + pad(f2(s.maximum), 7)
        + pad(f2(s.range), 7) + s.worstVariant + "\n"
    }
    var out = ""
    for mode in [AttitudeEstimator.Mode.nineD, .sixD] {
      out +=
        "\(mode == .nineD ? "9D" : "6D") total RMSE (deg) with each setting scaled by 0.8 and 1.2\n"
      out += pad("", 42) + "base   min    max    range  worst\n"
      for i in base.trials.indices { out += row(base.trials[i].name, spread(trial: i, mode: mode)) }
      for c in BroadCategory.allCases {
        if let s = spread(category: c, mode: mode) { out += row("category " + c.rawValue, s) }
      }
      if let s = spread(category: nil, mode: mode) { out += row("mean", s) }
      let worst = base.trials.indices.map { spread(trial: $0, mode: mode) }
      let count = Double(max(worst.count, 1))
      out +=
        "largest per-trial range \(f2(worst.map(\.range).max() ?? 0)), mean per-trial range "
        + "\(f2(worst.map(\.range).reduce(0, +) / count)), mean of per-trial worst "
        + "\(f2(worst.map(\.maximum).reduce(0, +) / count))\n\n"
    }
    return out
  }
}

extension AttitudeEstimator.Settings {
  /// Sets a setting by name (`swell evaluate --set NAME=VALUE`): a numeric setting of
  /// `BroadSensitivity.defaultParameters`, `leverArmTimeConstant`, `leverArmMinimumRate`,
  /// `correctionInterval`, `filterInterval`, `tapVariance`, or a Boolean flag as 0 or 1 (`estimates…`,
  /// `rejects…`, `restIgnoresTaps`, `inclinationDownWeightsTaps`, `leverArmDownWeightsTaps`).
  ///
  /// - Parameter assignment: `NAME=NUMBER`.
  /// - Returns: False when the text is not `NAME=NUMBER` or names no setting.
  public mutating func apply(_ assignment: String) -> Bool {
    let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2, let v = Double(parts[1]), v.isFinite else { return false }
    if let p = BroadSensitivity.defaultParameters.first(where: { $0.name == parts[0] }) {
      self[keyPath: p.keyPath] = v
      return true
    }
    switch parts[0] {
    case "estimatesGyroscopeScale": estimatesGyroscopeScale = v != 0
    case "estimatesGyroscopeBias": estimatesGyroscopeBias = v != 0
    case "estimatesMagnetometerDelay": estimatesMagnetometerDelay = v != 0
    case "estimatesLeverArm": estimatesLeverArm = v != 0
    case "leverArmTimeConstant": leverArmTimeConstant = v
    case "leverArmMinimumRate": leverArmMinimumRate = v
    case "correctionInterval": correctionInterval = v
    case "filterInterval": filterInterval = v
    case "biasMotionAccelerationScale": biasMotionAccelerationScale = v
    case "rejectsMagneticDisturbances": rejectsMagneticDisturbances = v != 0
    case "restIgnoresTaps": restIgnoresTaps = v != 0
    case "tapVariance": tapVariance = v
    case "inclinationDownWeightsTaps": inclinationDownWeightsTaps = v != 0
    case "leverArmDownWeightsTaps": leverArmDownWeightsTaps = v != 0
    default: return false
    }
    return true
  }
}

private func pad(_ s: String, _ n: Int) -> String {
  s.count >= n ? s + " " : s.padding(toLength: n, withPad: " ", startingAt: 0)
}

private func number(_ v: Double) -> String {
  v.isFinite ? String(format: "%.4f", v) : "null"
}
