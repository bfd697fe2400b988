import SwellGeometry
import SwellLayers

extension SceneFile {
  /// The built-in `waterwave` scene as a scene file: the WaterWave demo on an iPhone-like canvas
  /// (390 × 844 points @3x, a pale sky), one `waterWave` layer named `water` covering the canvas
  /// with three sine layers over a fill level of 0.5, back to front: amplitudes 12, 10 and 8
  /// points, wavelengths 300, 240 and 390 points, phase speeds 1.6, −2.2 and 3 rad/s,
  /// increasingly opaque blues, the front one a screen-vertical gradient; the classic response
  /// with the corrected tilt rule (1 s eased tilt, amplitude rise 0.06 s, release 0.6 s, peak
  /// held 0.25 s).
  ///
  /// `swell scene print waterwave` writes exactly this; colours are given in hex so that the
  /// printed file renders the same pixels.
  public static var waterwave: SceneFile {
    func color(_ hex: String) -> ColorSpec { ColorSpec.hex(hex) ?? ColorSpec(.black) }
    var response = WaterResponseSpec()
    response.model = .classic
    response.tiltRule = .corrected
    response.tiltDuration = 1
    response.tiltUpdateRate = 60
    response.amplitudeRiseTime = 0.06
    response.amplitudeReleaseTime = 0.6
    response.amplitudePeakHold = 0.25
    let front = LinearGradient(
      stops: [
        GradientStop(location: 0, color: color("#1F73EBEB").color),
        GradientStop(location: 1, color: color("#052473FF").color),
      ], space: .screenVertical)
    let water = WaterSpec(
      fillLevel: 0.5, sampleSpacing: 2.5,
      waves: [
        WaveSpec(
          amplitude: 12, wavelength: 300, phaseSpeed: 1.6, initialPhase: 1.2,
          fill: .color(color("#599EFA59"))),
        WaveSpec(
          amplitude: 10, wavelength: 240, phaseSpeed: -2.2, initialPhase: 2.4,
          fill: .color(color("#3380F280"))),
        WaveSpec(
          amplitude: 8, wavelength: 390, phaseSpeed: 3, initialPhase: 0, fill: .gradient(front)),
      ], response: response)
    var layer = LayerSpec(type: .waterWave, name: "water", frame: nil)
    layer.water = water
    return SceneFile(
      name: "waterwave",
      canvas: Canvas(width: 390, height: 844, scale: 3, background: color("#EDF5FFFF")),
      layers: [layer])
  }
}
