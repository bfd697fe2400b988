#ifndef SWELL_CGTK4_SHIM_H
#define SWELL_CGTK4_SHIM_H
#include <gtk/gtk.h>
#endif
