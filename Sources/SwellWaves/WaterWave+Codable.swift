// Codable conformances for the scene-file format (SwellScenes): the motion-response choices are
// written as their raw names (`"corrected"`, `"seedExact"`, `"classic"`, `"sloshing"`).

extension TiltRule: Codable {}

extension WaterWaveResponse: Codable {}
