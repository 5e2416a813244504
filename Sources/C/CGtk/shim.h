#ifndef WW_CGTK_SHIM_H
#define WW_CGTK_SHIM_H
#include <gtk/gtk.h>
#include <glib-unix.h>
#include <gtk-layer-shell/gtk-layer-shell.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/gdkx.h>
#endif
#ifdef GDK_WINDOWING_WAYLAND
#include <gdk/gdkwayland.h>
#endif

/// GTK's type checks are macros Swift cannot see: these are the casts the host needs.
static inline GtkWindow *ww_gtk_window(GtkWidget *w) { return GTK_WINDOW(w); }
static inline GtkMenuShell *ww_gtk_menu_shell(GtkWidget *w) { return GTK_MENU_SHELL(w); }
static inline GtkMenu *ww_gtk_menu(GtkWidget *w) { return GTK_MENU(w); }
static inline int ww_gdk_is_x11(GdkDisplay *d) {
#ifdef GDK_WINDOWING_X11
    return GDK_IS_X11_DISPLAY(d);
#else
    return 0;
#endif
}
static inline int ww_gdk_is_wayland(GdkDisplay *d) {
#ifdef GDK_WINDOWING_WAYLAND
    return GDK_IS_WAYLAND_DISPLAY(d);
#else
    return 0;
#endif
}
#endif
