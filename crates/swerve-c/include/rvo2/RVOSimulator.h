/* RVO2's RVOSimulator.h: everything is in RVO.h (swerve's header-only stand-in for RVO2's API). */
#include "RVO.h"
