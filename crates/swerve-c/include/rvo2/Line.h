/* RVO2's Line.h: everything is in RVO.h (swerve's header-only stand-in for RVO2's API). */
#include "RVO.h"
