// libqrencode (Debian's libqrencode-dev): QR codes for share links (`noise share`, `weaver share`).
#include <qrencode.h>
