// SwellLive's window and terminal run SwellLiveLoop's loop and are written in its types
// (`LiveLoop`, `LiveDisplay`, `LiveCanvas`, `FrameStatistics`), so importing SwellLive imports
// SwellLiveLoop too.
@_exported import SwellLiveLoop
