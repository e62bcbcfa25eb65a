// What Swift cannot say directly: the address of a protocol's `wl_interface` (Swift imports an extern const struct
// as a value, so `&xdg_wm_base_interface` is not available to it).
#include <string.h>
#include "CWayland.h"

static const struct wl_interface *const bindable[] = {
    &wl_compositor_interface,
    &wl_shm_interface,
    &wl_seat_interface,
    &wl_output_interface,
    &wl_data_device_manager_interface,
    &xdg_wm_base_interface,
    &wp_viewporter_interface,
    &wp_presentation_interface,
    &wp_fractional_scale_manager_v1_interface,
    &xdg_activation_v1_interface,
    &zxdg_decoration_manager_v1_interface,
    &zwp_pointer_gestures_v1_interface,
    &zwp_tablet_manager_v2_interface,
    &zxdg_exporter_v2_interface,
};

void *cwayland_bind(struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    for (size_t i = 0; i < sizeof bindable / sizeof bindable[0]; i++) {
        if (strcmp(bindable[i]->name, interface) == 0) {
            uint32_t supported = (uint32_t)bindable[i]->version;
            return wl_registry_bind(registry, name, bindable[i], version < supported ? version : supported);
        }
    }
    return NULL;
}
