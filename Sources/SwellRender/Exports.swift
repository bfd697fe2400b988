// SwellRender draws through SwellCairo and its API is written in SwellCairo's types
// (`CairoContext`, `ImageSurface`, `FramePixels`), so importing SwellRender imports SwellCairo too.
@_exported import SwellCairo
