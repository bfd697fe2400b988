#ifndef SWELL_CSDL2_SHIM_H
#define SWELL_CSDL2_SHIM_H
#define SDL_MAIN_HANDLED 1
#include <SDL2/SDL.h>
#endif
