/* RVO2's Vector2.h: everything is in RVO.h (swerve's header-only stand-in for RVO2's API). */
#include "RVO.h"
