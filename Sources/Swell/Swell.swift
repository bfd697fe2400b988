// The umbrella module: `import Swell` imports every public Swell module. A program that needs only
// part of Swell (device motion without Cairo or SDL2, say) imports and depends on those modules.
@_exported import SwellCairo
@_exported import SwellEffects
@_exported import SwellEvaluation
@_exported import SwellEvdev
@_exported import SwellFiles
@_exported import SwellGeometry
@_exported import SwellLayers
@_exported import SwellLive
@_exported import SwellLiveLoop
@_exported import SwellMotion
@_exported import SwellPlayback
@_exported import SwellRecordings
@_exported import SwellRender
@_exported import SwellScenes
@_exported import SwellSensors
@_exported import SwellTime
@_exported import SwellWaves
