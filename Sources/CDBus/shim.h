#ifndef SWELL_CDBUS_SHIM_H
#define SWELL_CDBUS_SHIM_H
#include <dbus/dbus.h>
#endif
